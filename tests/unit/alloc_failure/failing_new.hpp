// Allocation failure injection for this test program (failing_new.cpp).
#pragma once

#include <atomic>

namespace humus::test {
// -1: off. N >= 0: the allocation after N more capped ones fails (and then
// the count stays below 0: off again).
extern std::atomic<long> alloc_countdown;
}  // namespace humus::test
