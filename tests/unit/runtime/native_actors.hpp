// Actors for runtime tests, written in C++: a behavior is a NativeBehaviorCode
// (runtime/code.hpp, as the built-in actors' are) and its state is its
// closure's captured values, so the cycle collector sees the same edges it
// sees in compiled code's closures. Actors are made and sent to through the
// Runtime's own API; no compiler is needed.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>

#include "runtime/code.hpp"
#include "runtime/runtime.hpp"
#include "runtime/value.hpp"
#include "tests/unit/runtime/capturing_options.hpp"

namespace humus::rt::test {

// A behavior: `code` with `state` as its captured values.
inline Value native_behavior(const NativeBehaviorCode& code, std::initializer_list<Value> state) {
  Closure* c = Closure::make(&code, uint32_t(state.size()));
  uint32_t i = 0;
  for (const Value& v : state) c->captures()[i++] = v;
  return Value::adopt(c);
}

// The i-th value of the running actor's state (a BECOME takes effect only
// at commit, so it stays put for the whole event).
inline const Value& state(const Actor& self, uint32_t i) { return self.behavior.as<Closure>()->captures()[i]; }

// A runtime with its output and diagnostics captured (workers write from
// several threads: each append under a lock), started.
class TestRuntime {
  // First made, last gone: the runtime writes to them until it goes.
  std::mutex m_;
  std::string out_, err_;

 public:
  explicit TestRuntime(unsigned threads, uint64_t cycle_check = 0, bool final_collection = true)
      : rt(options(threads, cycle_check, final_collection, m_, out_, err_)) {
    rt.start();
  }
  TestRuntime(const TestRuntime&) = delete;
  TestRuntime& operator=(const TestRuntime&) = delete;

  Runtime rt;

  int64_t live() { return rt.stats().live_actors; }
  // A built-in actor or any other global, by name.
  Value global(std::string_view name) { return rt.globals().get(rt.globals().slot(name)); }
  // Runs `f` as a top-level statement runs: no cycle collection meanwhile,
  // so the actors it makes may get their behaviors after they are made.
  template <class F>
  void outside(F&& f) {
    Runtime::OutsideScope scope(rt);
    f();
  }
  std::string output() {
    std::lock_guard lock(m_);
    return out_;
  }
  std::string errors() {
    std::lock_guard lock(m_);
    return err_;
  }

 private:
  static RuntimeOptions options(unsigned threads, uint64_t cycle_check, bool final_collection, std::mutex& m,
                                std::string& out, std::string& err) {
    RuntimeOptions o = humus::test::capturing_options(threads, m, out, err);
    o.cycle_check = cycle_check;
    o.final_collection = final_collection;
    return o;
  }
};

}  // namespace humus::rt::test
