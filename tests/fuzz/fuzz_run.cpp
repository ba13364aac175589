// libFuzzer target: run arbitrary small programs under tight resource limits
// (runtime/limits.hpp) on one worker thread. Programs that end, fail, or hit
// a limit are all fine; a crash, leak or sanitizer report is a bug.
//
// An event that never finishes (an endless tail-recursive loop) cannot be
// interrupted (docs/reliability.md): run this target with libFuzzer's -fork
// mode, where such inputs are timeouts that are reported and ignored.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "interpreter/interpreter.hpp"
#include "runtime/limits.hpp"
#include "runtime/stack_guard.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Integers past 64 KB fail their event, as with --max-memory 256K
  // (--max-memory itself watches the resident set, which means nothing
  // under a sanitizer).
  humus::rt::set_integer_limit(64 << 10, 256 << 10);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return -1;  // small programs: the point is what they do
  auto source = std::make_shared<humus::ast::Source>(
      humus::ast::Source{"fuzz.hum", std::string(reinterpret_cast<const char*>(data), size)});
  humus::rt::RuntimeOptions ro;
  ro.threads = 1;
  ro.seed = 1;
  ro.out = [](std::string_view) {};
  ro.err = [](std::string_view) {};
  ro.limits.max_events = 2000;
  ro.limits.max_actors = 200;
  ro.limits.timeout = 1.0;
  humus::rt::run_on_big_stack([&] {
    humus::interp::Interpreter interp(ro);
    if (interp.load_prelude() != humus::interp::Interpreter::Outcome::Ok) __builtin_trap();
    humus::interp::CompiledUnit* unit = interp.load(source);
    if (!unit) return;
    interp.run(*unit);
    interp.start();
    interp.wait_idle();
  });
  return 0;
}
