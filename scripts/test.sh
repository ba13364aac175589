#!/usr/bin/env bash
# Sets everything up and runs every test:
#   1. the normal build (warnings are errors) and the whole suite;
#   2. the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer
#      (with LeakSanitizer);
#   3. the unit tests and every script on 4 worker threads under ThreadSanitizer.
# HUMUS_QUICK=1 runs only the first.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"

HUMUS_WERROR=1 scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$jobs"

if [ "${HUMUS_QUICK:-0}" != "1" ]; then
  echo "== the suite under AddressSanitizer + UndefinedBehaviorSanitizer"
  HUMUS_WERROR=1 HUMUS_SANITIZE=address HUMUS_BUILD_DIR=build-asan scripts/setup.sh
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"

  echo "== units and threaded scripts under ThreadSanitizer"
  HUMUS_WERROR=1 HUMUS_SANITIZE=thread HUMUS_BUILD_DIR=build-tsan scripts/setup.sh
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir build-tsan --output-on-failure -j"$jobs" -R '^(unit\.|threads4\.|cli$)'
fi
