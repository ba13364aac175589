// The interpreter: source text in, effects out.
//
// Ties the layers together in the one direction data flows: parse
// (grammar/) -> compile (compiler.hpp) -> run top-level statements in order
// -> the runtime dispatches messages. The CLI, the REPL and embedding hosts
// all go through this class.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "grammar/ast.hpp"
#include "interpreter/program.hpp"
#include "runtime/runtime.hpp"

namespace humus::interp {

class Interpreter {
 public:
  explicit Interpreter(rt::RuntimeOptions options);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  enum class Outcome { Ok, SyntaxError, CompileError, RuntimeError };

  // Parses and compiles; on failure reports the diagnostic and returns null.
  // `incomplete`, when given, is set for input that ends inside an open construct.
  CompiledUnit* load(ast::SourcePtr source, Outcome* outcome = nullptr, bool* incomplete = nullptr);
  // Runs the unit's top-level statements in order, stopping at the first that
  // fails. `on_value`, when set, receives the value of every expression
  // statement that is not a block (the REPL prints them); without it such a
  // value is a runtime error, as in a script.
  Outcome run(const CompiledUnit& unit, const std::function<void(const rt::Value&)>& on_value = {});
  // Loads and runs a whole source (the `humus FILE` path, without waiting).
  Outcome run_source(ast::SourcePtr source);

  rt::Runtime& runtime() { return *runtime_; }
  void start() { runtime_->start(); }
  void wait_idle() { runtime_->wait_idle(); }

 private:
  bool run_stmt(const TopStmt& t, const std::function<void(const rt::Value&)>& on_value);

  std::unique_ptr<rt::Runtime> runtime_;
  CodeArena arena_;
  rt::Context top_;  // the context of top-level statements
};

// Reads a file into a Source; returns null (with a message in `error`) when it can't.
ast::SourcePtr read_source_file(const std::string& path, std::string& error);

}  // namespace humus::interp
