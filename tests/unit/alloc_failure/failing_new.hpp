// Allocation failure injection for this test program (failing_new.cpp).
#pragma once

#include <atomic>

namespace humus::test {
// -1: off. N >= 0: the allocation after N more capped ones fails (and then
// the count stays below 0: off again).
extern std::atomic<long> alloc_countdown;
// How many allocations after that one fail too, capped or not, on any
// thread: memory that stays full while the error is reported, the event
// undone and the run wound down (0: only the one).
extern std::atomic<long> alloc_burst;
// How many allocations after the first failing one go through before the
// burst (the room an undone event finds, before reporting it fails).
extern std::atomic<long> alloc_burst_after;
// Off: no countdown, and what is left of a burst does not fail.
void stop_failing();
}  // namespace humus::test
