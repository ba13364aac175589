#!/usr/bin/env bash
# Sets everything up and runs every test: the normal build (warnings are
# errors), then the whole suite again under AddressSanitizer + UBSan.
# HUMUS_QUICK=1 skips the sanitizer build.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"

HUMUS_WERROR=1 scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "${HUMUS_QUICK:-0}" != "1" ]; then
  echo "== the same suite under AddressSanitizer + UndefinedBehaviorSanitizer"
  HUMUS_WERROR=1 HUMUS_SANITIZE=address HUMUS_BUILD_DIR=build-asan scripts/setup.sh
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi
