#!/usr/bin/env bash
# The training run of the profile-guided build (scripts/setup.sh): runs an
# instrumented humus on the example programs and on every benchmark at a
# tenth or so of its measured size, on 1 and 2 worker threads, so the
# profile covers parsing, compiling, the interpreter's hot paths and the
# dispatcher. A few seconds; output is discarded, failures are not (a
# training run that fails would leave a profile of an error path).
#   scripts/pgo-train.sh path/to/instrumented/humus
set -euo pipefail
cd "$(dirname "$0")/.."
humus="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# name and DEF settings for each benchmark (scripts/bench/run has the full sizes)
runs=(
  "ring N=10000 M=10"
  "pingpong K=100000"
  "fib N=20"
  "fib_server N=20"
  "counting K=500000"
  "chain N=100000"
  "parallel P=2 K=50000"
  "squeue k=50000"
  "fqueue K=100000"
  "nqueens N=8"
  "nqueenk N=8 W=4"
  "sortedlist C=4 M=1000"
  "sieve N=5000"
  "stash C=4 M=2000"
  "bigseries D=4000 F=20000"
  "msort N=10000 R=2"
  "interp N=20"
  "collatz N=30000 W=2"
  "trialdiv N=100000 W=2"
  "listops N=20000 R=2"
)
for r in "${runs[@]}"; do
  set -- $r
  name="$1"
  shift
  text="$(cat "scripts/bench/$name.hum")"
  for kv in "$@"; do
    text="$(printf '%s\n' "$text" | sed -E "s/^DEF ${kv%%=*} AS .*/DEF ${kv%%=*} AS ${kv#*=}/")"
  done
  printf '%s\n' "$text" >"$tmp/$name.hum"
  for threads in 1 2; do "$humus" --threads "$threads" "$tmp/$name.hum" >/dev/null; done
done
for example in scripts/*.hum; do "$humus" --threads 1 "$example" >/dev/null; done
