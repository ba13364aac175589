#!/usr/bin/env bash
# Installs what Humus needs to build and test (Debian packages, through apt-get) and
# builds it into build/. Safe to run again: it installs only what is missing
# and rebuilds only what changed. Set HUMUS_WERROR=1 to make warnings errors.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake ninja-build pkg-config tao-pegtl-dev doctest-dev libspdlog-dev libfmt-dev libgmp-dev libcli11-dev libedit-dev libmimalloc-dev
  libnats-dev libmsgpack-cxx-dev nats-server nlohmann-json3-dev openssl
  curl jq    # the three-server NATS fixture asks the servers' monitoring endpoints
  gdb        # a cluster test that hangs prints its nodes' stacks (tests/cluster/lib.sh)
  chromium)  # the diagram's rendering test (tests/web/diagram_render_test.mjs)
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

# Node.js and the npm packages of the tests that run in it: the JSON trace's
# schema test and the playground's browser test (tests/web/package-lock.json),
# the TextMate grammar's and the VS Code extension's tests
# (interpreter/lsp/vscode/package-lock.json).
if ! command -v npm >/dev/null; then
  echo "setup: installing nodejs npm"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
fi
if [ ! -f tests/web/node_modules/.package-lock.json ] || [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; then
  echo "setup: installing the npm packages of tests/web"
  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
if [ ! -f interpreter/lsp/vscode/node_modules/.package-lock.json ] ||
  [ interpreter/lsp/vscode/package-lock.json -nt interpreter/lsp/vscode/node_modules/.package-lock.json ]; then
  echo "setup: installing the npm packages of interpreter/lsp/vscode"
  (cd interpreter/lsp/vscode && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

build_dir="${HUMUS_BUILD_DIR:-build}"
werror=OFF
if [ "${HUMUS_WERROR:-0}" = "1" ]; then werror=ON; fi
configure() {
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHUMUS_WERROR="$werror" \
    ${HUMUS_SANITIZE:+-DHUMUS_SANITIZE=$HUMUS_SANITIZE} "$@" >/dev/null
}

# The humus command is built with profile-guided optimization (about 15%
# faster on message-heavy programs, docs/performance.md): an instrumented
# build runs scripts/pgo-train.sh, then everything is built with the
# profile. The profile is made again when a source is newer than it.
# Sanitizer builds, and HUMUS_PGO=0, skip it.
pgo=""
if [ -z "${HUMUS_SANITIZE:-}" ] && [ "${HUMUS_PGO:-1}" = "1" ]; then
  pgo=use
  stamp="$build_dir/pgo/trained"
  if [ ! -f "$stamp" ] || [ -n "$(find CMakeLists.txt grammar interpreter runtime stdlib scripts/bench scripts/pgo-train.sh \
      -newer "$stamp" -print -quit)" ]; then
    echo "setup: profile-guided build: instrumented build and training run"
    rm -rf "$build_dir/pgo"
    configure -DHUMUS_PGO=generate
    cmake --build "$build_dir" -j"$(nproc)" --target humus
    scripts/pgo-train.sh "$build_dir/humus"
    touch "$stamp"
  fi
fi
configure -DHUMUS_PGO="$pgo"
# HUMUS_BUILD_TARGETS: only these targets (and what they need), not all.
# shellcheck disable=SC2086
cmake --build "$build_dir" -j"$(nproc)" ${HUMUS_BUILD_TARGETS:+--target $HUMUS_BUILD_TARGETS}
