#!/usr/bin/env bash
# A node told to leave (SIGTERM) ends once its program is idle; one that is
# still not idle 5 s later says what it waits for (here a pending timer: one
# outside hold) instead of waiting in silence, and a second signal ends it.
source "$(dirname "$0")/lib.sh"
start_node waiter "$programs/leave_timer.hum" --threads 1
wait_line waiter '#ready'
kill -TERM "${node_pid[waiter]}"
wait_err waiter 'leaving the cluster'
wait_err waiter 'after leaving the cluster the program is not idle'
has_err waiter '5 s after leaving the cluster the program is not idle (messages queued or running: 0; outside holds: 1, such as pending timers, a read of standard input, topic values not yet stored, messages not yet acknowledged); a second signal ends it now'
kill -TERM "${node_pid[waiter]}"
wait_end waiter 143
same waiter "#ready"
echo "leave_not_idle: ok"
