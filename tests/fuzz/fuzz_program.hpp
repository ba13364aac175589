// What fuzz_run and fuzz_alloc do with an input: run it as a small program
// under tight resource limits (runtime/limits.hpp: at most 2000 events, 200
// actors, integers of 64 KB, one second) with the prelude.
// Programs that end, fail, or hit a limit are all fine; a crash, leak or
// sanitizer report is a bug.
//
// Fast, so that a minute covers ground: no thread is started per input (the
// events run on this thread, as in the playground: RuntimeOptions::threads
// = 0 and Runtime::run_for; the one-second limit is kept here rather than
// by a monitor thread), and a timer further off than 20 ms ends the run
// instead of being waited for. The cycle collector looks every 16 actors,
// and the input's hash picks a safe point at which the run is interrupted
// (as Stop in the playground does), so both are fuzzed too.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "interpreter/interpreter.hpp"
#include "runtime/limits.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::fuzz {

// Runs `code` with the prelude; `armed` is called once the prelude is in,
// just before the program is compiled (fuzz_alloc arms its failing
// allocator there: the prelude must load).
inline void run_program(std::string code, const std::function<void()>& armed = {}) {
  // 0: never interrupted; else at that safe point (each is 65,536 calls).
  const uint64_t interrupt_at = std::hash<std::string_view>{}(code) % 4;
  auto source = std::make_shared<ast::Source>(ast::Source{"fuzz.hum", std::move(code)});
  rt::RuntimeOptions ro;
  ro.threads = 0;
  ro.seed = 1;
  ro.out = [](std::string_view) {};
  ro.err = [](std::string_view) {};
  ro.limits.max_events = 2000;
  ro.limits.max_actors = 200;
  // Integers past 64 KB fail their event (--max-memory itself would cap
  // the process's allocations, which a sanitizer's own make meaningless).
  ro.limits.max_integer = 64 << 10;
  ro.cycle_check = 16;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  uint64_t safe_points = 0;
  ro.interrupt_requested = [&] {
    return ++safe_points == interrupt_at || std::chrono::steady_clock::now() >= deadline;
  };
  rt::run_on_big_stack([&] {
    interp::Interpreter interp(ro);
    if (interp.load_prelude() != interp::Interpreter::Outcome::Ok) __builtin_trap();
    if (armed) armed();
    interp::CompiledUnit* unit = interp.load(source);
    if (!unit) return;
    interp.run(*unit);
    interp.start();
    rt::Runtime& runtime = interp.runtime();
    for (;;) {
      const rt::Runtime::Slice slice = runtime.run_for(std::chrono::milliseconds(50));
      if (std::chrono::steady_clock::now() >= deadline) break;
      if (slice.more) continue;
      if (slice.wait_ms < 0 || slice.wait_ms > 20) break;  // over, or a timer too far off to wait for
      std::this_thread::sleep_for(std::chrono::milliseconds(slice.wait_ms));
    }
    runtime.collect_cycles();
  });
}

}  // namespace humus::fuzz
