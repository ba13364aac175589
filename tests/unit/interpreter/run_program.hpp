// Runs a Humus program inside the test process and captures what it printed.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "grammar/ast.hpp"
#include "interpreter/interpreter.hpp"
#include "runtime/stack_guard.hpp"
#include "tests/unit/runtime/capturing_options.hpp"

namespace humus::test {

struct Run {
  std::string out;
  std::string err;
  interp::Interpreter::Outcome outcome = interp::Interpreter::Outcome::Ok;
  bool had_runtime_error = false;
  rt::RuntimeStats stats;
  rt::LimitKind limit = rt::LimitKind::None;  // what stopped the run, if anything
};

// Runs `code` as the script `name` (default "test.hum") to quiescence, on a
// deep-stack thread like the humus command does; with the prelude if asked,
// and a structured trace into `tracer` if given, and the worker governor's
// settings if given.
inline Run run_program(const std::string& code, unsigned threads = 1, const std::string& name = "test.hum",
                       bool prelude = false, rt::TraceSink* tracer = nullptr,
                       const rt::GovernorSettings* governor = nullptr) {
  Run r;
  std::mutex m;
  rt::run_on_big_stack([&] {
    rt::RuntimeOptions o = capturing_options(threads, m, r.out, r.err);
    o.tracer = tracer;
    if (governor) o.workers = *governor;
    interp::Interpreter interp(o);
    if (prelude && interp.load_prelude() != interp::Interpreter::Outcome::Ok) {
      r.outcome = interp::Interpreter::Outcome::RuntimeError;
      return;
    }
    auto src = std::make_shared<ast::Source>(ast::Source{name, code});
    engine::CompiledUnit* unit = interp.load(src, &r.outcome);
    r.limit = interp.runtime().limit_reached();
    if (!unit) return;
    r.outcome = interp.run(*unit);
    interp.start();
    interp.wait_idle();
    r.had_runtime_error = interp.runtime().had_error();
    r.stats = interp.runtime().stats();
    r.limit = interp.runtime().limit_reached();
  });
  return r;
}

}  // namespace humus::test
