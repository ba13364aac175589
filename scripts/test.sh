#!/usr/bin/env bash
# Sets everything up and runs every test:
#   1. the normal build (warnings are errors) and the whole suite; then the
#      browser playground: its WebAssembly build, the scripts through it, and
#      the page in headless Chromium (docs/playground.md);
#   2. the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer
#      (with LeakSanitizer), but for the scripts' second run on four worker
#      threads (threads4.*), which ThreadSanitizer runs;
#   3. the unit tests, every script on 4 worker threads and the language
#      server under ThreadSanitizer;
#   4. the libFuzzer targets of tests/fuzz (clang, ASan+UBSan), each for
#      HUMUS_FUZZ_SECONDS (default 30) seconds: any crash, leak or sanitizer
#      report fails (docs/reliability.md).
# HUMUS_QUICK=1 runs only the first.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"

# Without the profile-guided stage (its instrumented build and training
# run): the tests check behaviour, which the profile does not change.
# HUMUS_PGO=1 tests the profiled build instead.
HUMUS_WERROR=1 HUMUS_PGO="${HUMUS_PGO:-0}" scripts/setup.sh
ctest --test-dir build --output-on-failure -j"$jobs"

# The browser playground (docs/playground.md): its WebAssembly build (kept in
# build-wasm/ between runs), every script through it under node, and the page
# in headless Chromium. It installs emscripten and chromium if missing.
echo "== the playground: WebAssembly build, the scripts under node, the page in headless Chromium"
HUMUS_JOBS="$jobs" scripts/playground.sh --test

if [ "${HUMUS_QUICK:-0}" != "1" ]; then
  echo "== the suite under AddressSanitizer + UndefinedBehaviorSanitizer"
  HUMUS_WERROR=1 HUMUS_SANITIZE=address HUMUS_BUILD_DIR=build-asan scripts/setup.sh
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs" -E '^threads4\.'

  echo "== units, threaded scripts and the language server under ThreadSanitizer"
  # Only what those tests run: the humus command, the unit programs and the
  # language server's client (its checker thread, interpreter/lsp/checker.hpp).
  HUMUS_WERROR=1 HUMUS_SANITIZE=thread HUMUS_BUILD_DIR=build-tsan \
    HUMUS_BUILD_TARGETS="humus grammar_tests runtime_tests interpreter_tests lsp_tests lsp_test alloc_failure_tests counted_new_tests embed_tests" \
    scripts/setup.sh
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions="$PWD/tests/tsan.supp" \
    ctest --test-dir build-tsan --output-on-failure -j"$jobs" -R '^(unit\.|threads4\.|cli$|lsp$)'

  # A fixed seed (HUMUS_FUZZ_SEED) makes CI explore the same inputs each time;
  # longer or differently seeded runs are for finding new bugs, not for gating.
  echo "== fuzzing: each libFuzzer target for ${HUMUS_FUZZ_SECONDS:-30} s"
  fuzz_packages=(clang libclang-rt-14-dev)
  fuzz_missing=()
  for p in "${fuzz_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || fuzz_missing+=("$p")
  done
  if ((${#fuzz_missing[@]})); then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${fuzz_missing[@]}" >/dev/null
  fi
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DHUMUS_FUZZ=ON >/dev/null
  cmake --build build-fuzz -j"$jobs" --target fuzz_parse fuzz_run fuzz_decode fuzz_alloc
  for target in fuzz_parse fuzz_run fuzz_decode fuzz_alloc; do
    mkdir -p "build-fuzz/corpus/$target"
    seeds=tests/fuzz/corpus
    [ "$target" = fuzz_decode ] && seeds=tests/fuzz/corpus_decode
    # -fork: an input that never finishes (code that makes no call for long,
    # out of the safe points' reach) is a timeout, reported and skipped; a
    # crash, leak or sanitizer report stops the run and fails.
    # The programs' targets hit tens of thousands of features each run, and
    # libFuzzer's rare-feature bookkeeping (entropic) then took half the
    # time: a lower threshold for "rare" keeps that list short (fuzz_run
    # in-process: 129 -> 325 inputs/s, and more coverage in the same time;
    # fuzz_parse, whose every input makes a runtime: 107 -> 250, issue 34).
    rare=()
    [[ "$target" != fuzz_decode ]] && rare=(-entropic_feature_frequency_threshold=0xFE)
    if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      "build-fuzz/tests/fuzz/$target" -seed="${HUMUS_FUZZ_SEED:-1}" -fork=1 -ignore_timeouts=1 -ignore_ooms=0 -ignore_crashes=0 -timeout=10 "${rare[@]}" \
      -rss_limit_mb=2048 -max_total_time="${HUMUS_FUZZ_SECONDS:-30}" -artifact_prefix="build-fuzz/$target-" \
      "build-fuzz/corpus/$target" "$seeds" >"build-fuzz/$target.log" 2>&1; then
      grep -v NEW_FUNC "build-fuzz/$target.log" | tail -60
      echo "fuzzing: $target found a bug: the input is build-fuzz/$target-*; make it a regression test"
      exit 1
    fi
    grep -E '^(#[0-9]+: cov|INFO: fuzzed)' "build-fuzz/$target.log" | tail -2
  done
fi
