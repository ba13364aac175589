// libFuzzer target: run arbitrary small programs under tight resource limits
// (fuzz_program.hpp).
//
// An endless loop inside one event is ended by the time limit (kInputTime) at the VM's
// next safe point (docs/reliability.md); code that makes no call for long
// can still hang: run this target with libFuzzer's -fork mode, where such
// inputs are timeouts that are reported and ignored.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return -1;  // small programs: the point is what they do
  humus::fuzz::run_program(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
