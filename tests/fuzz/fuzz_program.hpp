// What fuzz_run and fuzz_alloc do with an input: run it as a small program
// under tight resource limits (runtime/limits.hpp: at most 2000 events, 200
// actors, 1 second, integers of 64 KB) on one worker thread.
// Programs that end, fail, or hit a limit are all fine; a crash, leak or
// sanitizer report is a bug.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "interpreter/interpreter.hpp"
#include "runtime/limits.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::fuzz {

// Runs `code` with the prelude; `armed` is called once the prelude is in,
// just before the program is compiled (fuzz_alloc arms its failing
// allocator there: the prelude must load).
inline void run_program(std::string code, const std::function<void()>& armed = {}) {
  auto source = std::make_shared<ast::Source>(ast::Source{"fuzz.hum", std::move(code)});
  rt::RuntimeOptions ro;
  ro.threads = 1;
  ro.seed = 1;
  ro.out = [](std::string_view) {};
  ro.err = [](std::string_view) {};
  ro.limits.max_events = 2000;
  ro.limits.max_actors = 200;
  ro.limits.timeout = 1.0;
  // Integers past 64 KB fail their event (--max-memory itself would cap
  // the process's allocations, which a sanitizer's own make meaningless).
  ro.limits.max_integer = 64 << 10;
  rt::run_on_big_stack([&] {
    interp::Interpreter interp(ro);
    if (interp.load_prelude() != interp::Interpreter::Outcome::Ok) __builtin_trap();
    if (armed) armed();
    interp::CompiledUnit* unit = interp.load(source);
    if (!unit) return;
    interp.run(*unit);
    interp.start();
    interp.wait_idle();
  });
}

}  // namespace humus::fuzz
