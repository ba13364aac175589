# Helpers for the cluster tests, sourced by each of them. The environment
# (tests/CMakeLists.txt) gives HUMUS (the command), NATS_DIR (the fixture's
# folder: nats_fixture.sh) and WORK (a scratch folder for this test).
#
# Every node is a real humus process on the fixture's real nats-server,
# with its own cluster name per test (tests may run at the same time on
# one server). Waits are on conditions (a line in a node's output, a
# process's end) with generous limits, never on fixed sleeps, so a busy
# machine makes a test slower, not flaky.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
programs="$here/programs"
URL="$(cat "$NATS_DIR/url")"
rm -rf "$WORK" && mkdir -p "$WORK"
CLUSTER="${HUMUS_TEST_CLUSTER:-t$(basename "$WORK")_$$}"
LIMIT="${HUMUS_TEST_WAIT:-180}"  # seconds any one wait may take
declare -A node_pid=()

# Whatever a failing test leaves running goes with it.
cleanup() {
  for n in "${!node_pid[@]}"; do kill -9 "${node_pid[$n]}" 2>/dev/null || true; done
  if [ -n "${watchdog_pid:-}" ]; then
    pkill -P "$watchdog_pid" 2>/dev/null || true
    kill "$watchdog_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT

# stacks NAME: a running node's threads' stacks into WORK/NAME_stacks.err
# (fail prints them), if gdb is here; never for long.
stacks() {
  command -v gdb >/dev/null || return 0
  kill -0 "${node_pid[$1]}" 2>/dev/null || return 0
  timeout 15 gdb -nx -batch -iex 'set debuginfod enabled off' -p "${node_pid[$1]}" \
    -ex "thread apply all bt 25" >"$WORK/$1_stacks.err" 2>&1 || true
}

# HUMUS_TEST_DEADLINE (seconds, tests/CMakeLists.txt: below ctest's
# timeout): past it the test fails with its nodes' output and stacks. A
# test ctest kills says nothing, and runs no EXIT trap (a server it killed
# would stay down).
if [ -n "${HUMUS_TEST_DEADLINE:-}" ]; then
  overdue() {
    trap - USR1
    for n in "${!node_pid[@]}"; do stacks "$n"; done
    fail "the test did not finish within ${HUMUS_TEST_DEADLINE}s"
  }
  trap overdue USR1
  (
    exec >/dev/null 2>&1 </dev/null
    sleep "$HUMUS_TEST_DEADLINE"
    kill -USR1 $$
  ) &
  watchdog_pid=$!
fi

fail() {
  echo "FAIL: $*"
  for f in "$WORK"/*.out "$WORK"/*.err; do
    [ -f "$f" ] || continue
    echo "---- $(basename "$f")"
    # Errors in full from the top (a sanitizer report starts with where it
    # happened), output from the end.
    # A hung node's stacks: every thread, our frames and the client library's.
    case "$f" in
    *_stacks.err) grep -E '^Thread |humus::|/runtime/|/interpreter/|libnats' "$f" | head -n 150 ;;
    *.err) head -n 80 "$f" ;;
    *) tail -n 40 "$f" ;;
    esac
  done
  exit 1
}

# start_node NAME FILE [humus options...]: a node in the background.
start_node() {
  local name="$1" file="$2"
  shift 2
  "$HUMUS" --cluster "$URL" --cluster-name "$CLUSTER" --node "$name" --stats --log-level info "$@" "$file" \
    >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null &
  node_pid[$name]=$!
}

# wait_line NAME PATTERN [COUNT]: until NAME's stdout has COUNT lines matching PATTERN.
wait_line() { wait_lines "$1" out "$2" "${3:-1}"; }
# wait_err NAME PATTERN [COUNT]: the same for NAME's stderr (its log).
wait_err() { wait_lines "$1" err "$2" "${3:-1}"; }
wait_lines() {  # NAME out|err PATTERN COUNT
  local name="$1" file="$WORK/$1.$2" pattern="$3" count="$4" waited=0
  local seen
  while seen="$(grep -c -- "$pattern" "$file" 2>/dev/null)"; [ "${seen:-0}" -lt "$count" ]; do
    kill -0 "${node_pid[$name]}" 2>/dev/null || fail "$name ended before its std$2 had $count x '$pattern'"
    sleep 0.05
    waited=$((waited + 1))
    [ $waited -lt $((LIMIT * 20)) ] || fail "$name's std$2 did not have $count x '$pattern' in ${LIMIT}s"
  done
  slow "$waited" "$name's std$2 to have $count x '$pattern'"
}

# slow TICKS WHAT: a wait of over 5 s (TICKS of 50 ms) is noted with the
# test's clock: ctest shows a failing test's output, and where its time went.
slow() {
  [ "$1" -le 100 ] || echo "[${SECONDS}s] waited $(($1 / 20))s for $2"
}

# wait_end NAME [STATUS]: until NAME's process ends; it must end with STATUS (default 0;
# a regex alternation such as "0|1" accepts either).
wait_end() {
  local name="$1" want="${2:-0}" waited=0 status=0
  while kill -0 "${node_pid[$name]}" 2>/dev/null; do
    sleep 0.05
    waited=$((waited + 1))
    [ $waited -lt $((LIMIT * 20)) ] || fail "$name did not end in ${LIMIT}s"
  done
  slow "$waited" "$name to end"
  wait "${node_pid[$name]}" || status=$?
  unset "node_pid[$name]"
  [[ "$status" =~ ^($want)$ ]] || fail "$name ended with status $status, not $want"
}

# kill_node NAME: kill -9, as a machine dying would.
kill_node() {
  kill -9 "${node_pid[$1]}"
  wait "${node_pid[$1]}" 2>/dev/null || true
  unset "node_pid[$1]"
}

# same NAME EXPECTED: NAME's stdout is exactly the text EXPECTED.
same() {
  local got
  got="$(cat "$WORK/$1.out")"
  [ "$got" = "$2" ] || fail "$1 printed:
$got
---- instead of:
$2"
}

# has NAME PATTERN: NAME's stderr has a line matching PATTERN.
has_err() {
  grep -q -- "$2" "$WORK/$1.err" || fail "$1's stderr has no '$2'"
}

# stat NAME FIELD: a number from NAME's --stats line ("5 sent" -> stat a sent).
stat() {
  grep -o "[0-9]* $2" "$WORK/$1.err" | tail -1 | cut -d' ' -f1
}

# own_server ARGS...: a nats-server of this test's own (ARGS: its options,
# say -c FILE), on a free loopback port; sets URL to it. It dies with the test.
own_server() {
  mkdir -p "$WORK/own_nats"
  setsid nats-server -a 127.0.0.1 -p -1 "$@" >"$WORK/own_nats/server.log" 2>&1 </dev/null &
  own_server_pid=$!
  trap 'kill -9 "$own_server_pid" 2>/dev/null || true; cleanup' EXIT
  for _ in $(seq 1 600); do
    grep -q 'Server is ready' "$WORK/own_nats/server.log" && break
    kill -0 "$own_server_pid" 2>/dev/null || break
    sleep 0.1
  done
  local port
  port="$(grep -o 'client connections on 127.0.0.1:[0-9]*' "$WORK/own_nats/server.log" | head -1 | sed 's/.*://')"
  [ -n "$port" ] || { cat "$WORK/own_nats/server.log"; fail "nats-server $* did not start"; }
  URL="nats://127.0.0.1:$port"
}
