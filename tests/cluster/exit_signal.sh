#!/usr/bin/env bash
# SIGTERM while a node is ending by itself (it has left and printed its
# stats; its runtime is being torn down): the node ends with status 0. The
# signal-watching thread outlived the runtime by up to its 200 ms tick, and
# a signal in that window made it use the freed runtime: SIGSEGV (status
# 139; first seen after a broker restart, repro R12). Trials at delays
# across the tick, so that some land in the window.
source "$(dirname "$0")/lib.sh"
for delay in 0 0.02 0.04 0.06 0.08 0.1 0.12 0.14 0.16 0.18; do
  n="n${delay/./_}"
  start_node "$n" "$programs/leave_now.hum" --threads 1
  waited=0
  until grep -q 'stats: cluster' "$WORK/$n.err" 2>/dev/null; do
    kill -0 "${node_pid[$n]}" 2>/dev/null || break  # ended before its signal: a trial missed
    sleep 0.005
    waited=$((waited + 1))
    [ $waited -lt $((LIMIT * 200)) ] || fail "$n printed no stats in ${LIMIT}s"
  done
  sleep "$delay"
  kill -TERM "${node_pid[$n]}" 2>/dev/null || true
  wait_end "$n" 0
  same "$n" "#leaving"
done
echo "exit_signal: ok"
