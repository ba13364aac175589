#!/usr/bin/env bash
# Installs what Humus needs to build (Debian packages, through apt-get) and
# builds it into build/. Safe to run again: it installs only what is missing
# and rebuilds only what changed. Set HUMUS_WERROR=1 to make warnings errors.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake ninja-build pkg-config tao-pegtl-dev doctest-dev libspdlog-dev libfmt-dev libgmp-dev libcli11-dev libedit-dev libmimalloc-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build_dir="${HUMUS_BUILD_DIR:-build}"
werror=OFF
if [ "${HUMUS_WERROR:-0}" = "1" ]; then werror=ON; fi
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHUMUS_WERROR="$werror" \
  ${HUMUS_SANITIZE:+-DHUMUS_SANITIZE=$HUMUS_SANITIZE} >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
