// libFuzzer target: allocation failure injection. The input's first two
// bytes say which allocation fails, N < 4096 (the Nth one made while compiling or
// inside an event's code, as a `ulimit -v` would make it fail: GMP's too);
// the rest is a small program, run as fuzz_run runs it. Whichever allocation
// fails, the load or the event must fail cleanly: no crash, no leak, no
// sanitizer report (tests/unit/alloc_failure does the same, exhaustively,
// for one program).
#include <cstddef>
#include <cstdint>
#include <string>

#include "../unit/alloc_failure/failing_new.hpp"
#include "fuzz_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || size > 4098) return -1;
  // 12 bits: a program's compile and events make a few thousand allocations
  // at most, and a seed that is plain text ("# ...") still fails an early one.
  const long nth = long(data[0]) | long(data[1] & 0x0F) << 8;
  humus::fuzz::run_program(std::string(reinterpret_cast<const char*>(data) + 2, size - 2),
                           [nth] { humus::test::alloc_countdown = nth; });
  humus::test::alloc_countdown = -1;
  return 0;
}
