// libFuzzer target: parse and compile arbitrary bytes (nothing runs).
// Any crash, leak, hang or sanitizer report is a bug: malformed input must
// give a diagnostic (LANGUAGE.md section 12). See docs/reliability.md.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "fuzz_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto source = std::make_shared<humus::ast::Source>(
      humus::ast::Source{"fuzz.hum", std::string(reinterpret_cast<const char*>(data), size)});
  humus::rt::RuntimeOptions ro;
  // No worker or timer thread (a runtime with threads starts its timer
  // thread when it is made): nothing runs here.
  ro.threads = 0;
  ro.out = [](std::string_view) {};
  ro.err = [](std::string_view) {};
  // On a thread with the interpreter's deep, guarded stack, as the humus
  // command does: one kept for the whole run (fuzz_program.hpp).
  humus::fuzz::StackThread::get().run([&] {
    humus::interp::Interpreter interp(ro);
    interp.load(source);
  });
  return 0;
}
