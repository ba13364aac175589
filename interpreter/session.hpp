// A script session: the one way from source text to a running program,
// shared by every front end (the humus command, the REPL, the playground,
// the embedding API, the language server).
//
// It owns the interpreter and says once what each front end used to write
// out for itself: the prelude first; then, for each piece of code, compile
// -> check names -> run its top-level statements; at the end, how the run
// ended and the notes it ends with. A front end only words the result
// (exit status, playground outcome, embedding Result, editor diagnostics).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "interpreter/interpreter.hpp"

namespace humus::interp {

class Session {
 public:
  using Outcome = Interpreter::Outcome;

  struct Options {
    rt::RuntimeOptions runtime;
    rt::ClusterOptions cluster;         // where `cluster` reaches other nodes; none: this process only
    bool prelude = true;                // open() imports stdlib/prelude.hum
    bool sandbox = false;               // IMPORT takes standard-library modules only (--sandbox)
    std::vector<std::string> silenced;  // compile warnings of these kinds are not reported (--no-warn)
    // Diagnostics as data (embedding hosts, the language server) instead of
    // text on the runtime's stderr.
    Interpreter::DiagnosticHandler diagnostics;
  };
  // Makes the runtime; throws rt::ClusterError when the cluster cannot be joined.
  explicit Session(Options options);

  // Imports the prelude, when asked for. It defines globals only and creates
  // no actors, so a script's actor numbers are the same with or without it.
  Outcome open();

  // Names read but defined nowhere (name_check.hpp): errors for a whole
  // script (nothing runs); warnings where a later entry may still define
  // them (the REPL, the embedding API's eval); unchecked where the caller
  // judges them itself (the language server, with its own module cache).
  enum class Names { Errors, Warnings, Unchecked };

  // What to do with a piece of code.
  struct Entry {
    Interpreter::ScriptMode mode = Interpreter::ScriptMode::Statements;
    Names names = Names::Errors;
    // false: diagnostics only (--check, the language server): each
    // statement's code is dropped once compiled, and nothing runs.
    bool keep_code = true;
    // Sees each top-level statement as it is parsed (the server's outline).
    std::function<void(const ast::Stmt&)> each;
    // Receives the value of each expression statement that is not a block
    // (the REPL prints them; eval returns the last); without it such a value
    // is ignored, as in a script.
    std::function<void(const rt::Value&)> on_value;
  };

  // What compiling found.
  struct Compiled {
    Outcome outcome = Outcome::Ok;         // SyntaxError, or CompileError (also for a name defined nowhere)
    engine::CompiledUnit* unit = nullptr;  // null unless the code compiled (it may still fail the name check)
    bool incomplete = false;               // the input ended inside an open construct (the REPL reads on)
  };
  // Parses, compiles and checks names. `want_incomplete` (the REPL):
  // input that ends inside an open construct is compiled as a whole, so
  // that it can be told apart (Compiled::incomplete) and read again.
  Compiled compile(ast::SourcePtr source, const Entry& how, bool want_incomplete = false);
  // Runs a compiled unit's top-level statements, in order.
  Outcome run(const engine::CompiledUnit& unit, const Entry& how);
  // compile() then run(), the whole way in for a script, an eval or an IMPORT by a host.
  Outcome enter(ast::SourcePtr source, const Entry& how);

  // Starts dispatching messages; top-level statements run before it keep
  // their order, and their messages are already queued by then.
  void start() { interp_.start(); }
  void wait_idle() { interp_.wait_idle(); }

  // How the run ended, after the last outcome of enter()/run()/open().
  enum class Ending {
    Ok,           // everything ran without error
    Rejected,     // a syntax, compile or name error: nothing (more) ran
    Failed,       // a runtime error was reported (a top-level statement or an actor's event)
    Stopped,      // a resource limit stopped the run
    Interrupted,  // stopped from outside (the playground's Stop)
  };
  Ending ending(Outcome last) const;
  // The lines a finished run ends with: how many messages were dropped
  // unhandled (when `unhandled`: not after -W or a trace, which said each)
  // and the `testing` module's tally; "" when there is nothing to say.
  std::string notes(bool unhandled = true) const;

  Interpreter& interpreter() { return interp_; }
  rt::Runtime& runtime() { return interp_.runtime(); }

 private:
  Options options_;
  Interpreter interp_;
};

}  // namespace humus::interp
