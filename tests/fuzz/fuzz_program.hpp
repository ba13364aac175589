// What fuzz_run and fuzz_alloc do with an input: run it as a small program
// under tight resource limits (runtime/limits.hpp: at most 2000 events, 200
// actors, integers of 64 KB, one second), with the prelude if it uses it.
// Programs that end, fail, or hit a limit are all fine; a crash, leak or
// sanitizer report is a bug.
//
// Fast, so that a minute covers ground:
// - no thread is started per input: the events run on one long-lived
//   big-stack thread, as in the playground (RuntimeOptions::threads = 0 and
//   Runtime::run_for; the one-second limit is kept here rather than by a
//   monitor thread), and a timer further off than 20 ms ends the run
//   instead of being waited for;
// - the prelude, whose compilation was most of an input's time (and most of
//   the coverage libFuzzer sorts through after each run, all of it the same),
//   is loaded only for an input that names one of its definitions or
//   imports a module; a program that names none of them runs the same
//   without it.
// The cycle collector looks every 16 actors, and the input's hash picks a
// safe point at which the run is interrupted (as Stop in the playground
// does), so both are fuzzed too.
#pragma once

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_set>

#include "interpreter/interpreter.hpp"
#include "runtime/limits.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::fuzz {

// One thread with a big stack (the interpreter's deep recursion checks need
// one), kept for the whole process: starting one per input cost a tenth of
// the time (mapping and unmapping its stack).
class StackThread {
 public:
  static StackThread& get() {
    static StackThread* t = new StackThread;  // never joined: it lives as long as the process
    return *t;
  }
  // Runs fn on the thread and waits for it; rethrows what it throws.
  void run(const std::function<void()>& fn) {
    std::unique_lock lock(m_);
    job_ = &fn;
    error_ = nullptr;
    cv_.notify_all();
    cv_.wait(lock, [this] { return !job_; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  StackThread()
      : thread_([this] {
          std::unique_lock lock(m_);
          for (;;) {
            cv_.wait(lock, [this] { return job_ != nullptr; });
            try {
              (*job_)();
            } catch (...) {
              error_ = std::current_exception();
            }
            job_ = nullptr;
            cv_.notify_all();
          }
        }) {}
  std::mutex m_;
  std::condition_variable cv_;
  const std::function<void()>* job_ = nullptr;
  std::exception_ptr error_;
  rt::BigStackThread thread_;  // last: starts once the fields above are made
};

// The names the prelude binds, found once by loading it.
inline const std::unordered_set<std::string>& prelude_names() {
  static const std::unordered_set<std::string> names = [] {
    std::unordered_set<std::string> out;
    StackThread::get().run([&] {
      rt::RuntimeOptions ro;
      ro.threads = 0;
      ro.out = [](std::string_view) {};
      ro.err = [](std::string_view) {};
      interp::Interpreter interp(ro);
      std::unordered_set<std::string> before;
      for (auto& [name, v] : interp.runtime().globals().bound()) before.insert(name);
      if (interp.load_prelude() != interp::Interpreter::Outcome::Ok) __builtin_trap();
      for (auto& [name, v] : interp.runtime().globals().bound())
        if (!before.count(name)) out.insert(name);
    });
    return out;
  }();
  return names;
}

// Whether `code` names a definition of the prelude or imports a module.
inline bool needs_prelude(std::string_view code) {
  const auto& names = prelude_names();
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < code.size();) {
    if (!word(code[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < code.size() && word(code[j])) ++j;
    const std::string w(code.substr(i, j - i));
    if (w == "IMPORT" || names.count(w)) return true;
    i = j;
  }
  return false;
}

// Runs `code` (with the prelude if it uses it); `armed` is called just
// before the program is compiled (fuzz_alloc arms its failing allocator
// there: the prelude must load).
inline void run_program(std::string code, const std::function<void()>& armed = {}) {
  // 0: never interrupted; else at that safe point (each is 65,536 calls).
  const uint64_t interrupt_at = std::hash<std::string_view>{}(code) % 4;
  const bool prelude = needs_prelude(code);
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
  StackThread::get().run([&] {
    interp::Interpreter interp(ro);
    if (prelude && interp.load_prelude() != interp::Interpreter::Outcome::Ok) __builtin_trap();
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
