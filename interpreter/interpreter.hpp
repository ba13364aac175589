// The interpreter: source text in, effects out.
//
// Ties the layers together in the one direction data flows: parse
// (grammar/) -> compile (compiler.hpp) -> run top-level statements in order
// -> the runtime dispatches messages. Front ends reach it through a script
// session (session.hpp), which says in what order its parts are used.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/engine/program.hpp"
#include "interpreter/modules.hpp"
#include "runtime/cluster/cluster_options.hpp"
#include "runtime/runtime.hpp"

namespace humus::interp {

class Interpreter {
 public:
  // Runs with the cluster of `cluster` installed as the runtime's
  // distribution layer: joined when cluster.url is set (throws
  // rt::ClusterError when it cannot), else this process alone, with the
  // global `cluster` and topics in memory.
  explicit Interpreter(rt::RuntimeOptions options, const rt::ClusterOptions& cluster = {});
  // One that starts with what `base` has loaded (the prelude, modules,
  // definitions) without compiling it again: base's globals are lent to
  // this interpreter's runtime and given back as they were when it ends
  // (rt::Globals::lend). `base` must outlive it and run nothing meanwhile,
  // and lends to one interpreter at a time (a second throws
  // std::logic_error). For hosts that make many short runs from one loaded
  // library: the fuzz targets make one per input.
  Interpreter(rt::RuntimeOptions options, Interpreter& base);
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  enum class Outcome { Ok, SyntaxError, CompileError, RuntimeError };
  // How a script's top-level statements run: one at a time, in order, each
  // its own transaction (LANGUAGE.md section 8; humus_js), or all as one
  // block, ordered by dataflow, in one transaction (uFork; script_block.hpp).
  enum class ScriptMode { Statements, OneBlock };

  // Parses and compiles; on failure reports the diagnostic and returns null.
  // `incomplete`, when given, is set for input that ends inside an open construct.
  engine::CompiledUnit* load(ast::SourcePtr source, Outcome* outcome = nullptr, bool* incomplete = nullptr,
                             ScriptMode mode = ScriptMode::Statements);
  // The same for the diagnostics only (humus --check, the language server):
  // each statement's code is dropped once compiled, so the unit has no code
  // to run, only its IMPORTs and names for check_names. `each` sees every
  // top-level statement as it is parsed, even after a compile error.
  engine::CompiledUnit* check(ast::SourcePtr source, Outcome* outcome = nullptr,
                              const std::function<void(const ast::Stmt&)>& each = {});
  // Runs the unit's top-level statements in order, stopping at the first that
  // fails. `on_value`, when set, receives the value of every expression
  // statement that is not a block (the REPL prints them); without it such a
  // value is ignored, as in a script (-W reports it).
  Outcome run(const engine::CompiledUnit& unit, const std::function<void(const rt::Value&)>& on_value = {});
  // Loads and runs a whole source (the `humus FILE` path, without waiting).
  Outcome run_source(ast::SourcePtr source, ScriptMode mode = ScriptMode::Statements);

  // Name checking before a run: every global the unit reads must be defined
  // somewhere, bound now (built-ins, prelude, earlier code) or bound by the
  // unit's own top level or by a module it imports (read, not run). Each
  // name that is not is reported at its first use, with the closest defined
  // names ("did you mean 'println'?"): as an error for a script (returns
  // false: nothing should run), as a warning where later input may still
  // define it (the REPL; returns true; a name that top-level code reads at
  // once is left to the runtime error, which says the same). When an IMPORT
  // cannot be read ahead (missing, refused, malformed), nothing is checked:
  // the run reports that.
  bool check_names(const engine::CompiledUnit& unit, bool as_errors);

  // The line a run without -W ends with when messages were dropped
  // unhandled ("humus: warning: 2 messages were not handled (run with -W to
  // see which)"), or "" when none were: the command and the playground say
  // the same.
  std::string unhandled_note() const;
  // "humus: checks: N passed, M failed\n" after a run that made checks of
  // the `testing` module (docs/stdlib/testing.md), then a line for each
  // failed one, with where it failed; "" when no check ran.
  std::string checks_note() const;

  // IMPORT (LANGUAGE.md section 10), for hosts: runs module `name` once per
  // interpreter, as `IMPORT "name"` in a file in folder `from_dir` would
  // ("" = the current directory), found as interpreter/modules.hpp says;
  // a host may name any file, an IMPORT statement only what the rules
  // allow (ImportRules). A second import of the same file (same canonical
  // path) does nothing. Errors (not found, cycle, syntax, compile, runtime)
  // are reported on the runtime's stderr; the outcome says which kind it was.
  Outcome import(const std::string& name, const std::string& from_dir = "");
  // The prelude (stdlib/prelude.hum): the humus command imports it before
  // every script unless --no-prelude; the REPL should do the same.
  Outcome load_prelude() { return import("prelude"); }

  // A diagnostic as data (embedding hosts collect them instead of text).
  struct Diagnostic {
    std::string file;
    uint32_t line = 0, column = 0;  // 0 when there is no location; the column in characters
    std::string severity;           // "error" or "warning"
    std::string message;
    uint32_t byte_column = 0;  // the column in bytes of the line (0 when not known)
  };
  using DiagnosticHandler = std::function<void(const Diagnostic&)>;
  // When set, the diagnostics of load, run and import (syntax, compile and
  // import errors, warnings, runtime errors of top-level statements) go to
  // `handler` instead of the runtime's stderr. Errors inside actors still go
  // to stderr. Not set by the humus command, whose output stays as it is.
  void set_diagnostic_handler(DiagnosticHandler handler) { diagnostic_handler_ = std::move(handler); }

  // The sandbox, for hosts that run code they do not trust: IMPORT
  // statements may then name standard-library modules only, and no Humus
  // code reads any other file (--sandbox). Off by default.
  void set_sandbox(bool on) { sandbox_ = on; }
  bool sandbox() const { return sandbox_; }

  // Compile warnings of these kinds ("shadow", "arity": CompileWarning::kind)
  // are not reported (--no-warn=KIND).
  void silence_warnings(const std::string& kind) { silenced_.insert(kind); }

  rt::Runtime& runtime() { return *runtime_; }
  const rt::Runtime& runtime() const { return *runtime_; }
  void start() { runtime_->start(); }
  void wait_idle() { runtime_->wait_idle(); }

 private:
  Outcome run_stmt(const engine::CompiledUnit& unit, const engine::TopStmt& t,
                   const std::function<void(const rt::Value&)>& on_value);
  Outcome run_stmt_body(const engine::CompiledUnit& unit, const engine::TopStmt& t,
                        const std::function<void(const rt::Value&)>& on_value);
  // IMPORT with the location of the statement (null for hosts' imports).
  Outcome import_at(const std::string& name, const std::string& from_dir, const rt::SourceLoc* loc);
  struct LoadHow {
    ScriptMode mode = ScriptMode::Statements;
    bool keep_code = true;
    const std::function<void(const ast::Stmt&)>* each = nullptr;
  };
  engine::CompiledUnit* load_with(ast::SourcePtr source, Outcome* outcome, bool* incomplete, const LoadHow& how);
  engine::CompiledUnit* load_capped(ast::SourcePtr source, Outcome* outcome, bool* incomplete, const LoadHow& how);
  // The rules an IMPORT statement (or, `statement` false, a host) imports by.
  ImportRules import_rules(bool statement) const;
  // The folder IMPORT statements may not leave: the first script's.
  void set_import_root(const std::string& dir);
  // The folder a unit's relative IMPORTs start from.
  std::string import_dir(const engine::CompiledUnit& unit) const;
  // Adds to `defined` what the modules `imports` (relative to `dir`) would
  // define, recursively; false when one of them cannot be read ahead.
  bool imported_names(const std::vector<std::string>& imports, const std::string& dir,
                      std::unordered_set<std::string>& defined, std::set<std::string>& seen);
  void report_import_error(const rt::SourceLoc* loc, const std::string& message);
  void report_source_diagnostic(const ast::Source& source, ast::Loc loc, const char* severity,
                                const std::string& message);

  // The sources of the code compiled, by the address of their name (what a
  // rt::SourceLoc holds): runtime errors show their lines (source_view).
  struct SourceTable {
    std::mutex mutex;
    std::unordered_map<const std::string*, ast::SourcePtr> by_name;
  };
  std::shared_ptr<SourceTable> sources_ = std::make_shared<SourceTable>();
  std::unique_ptr<rt::Runtime> runtime_;
  engine::CodeArena arena_;
  rt::Context top_;                                             // the context of top-level statements
  std::set<std::string> imported_;                              // canonical paths of modules run (or running)
  std::vector<std::pair<std::string, std::string>> importing_;  // (canonical, shown) being run, for cycles
  std::map<const ast::Source*, std::string> module_dirs_;       // a module's real folder, for its relative IMPORTs
  DiagnosticHandler diagnostic_handler_;
  bool sandbox_ = false;
  bool check_failed_ = false;  // the last statement that failed failed a check of the `testing` module
  std::set<std::string> silenced_;
  std::filesystem::path import_root_;  // the folder IMPORT statements may not leave (ImportRules::root)
};

// Reads a regular file into a Source; returns null (with a message in `error`)
// when it can't (interpreter/read_source.hpp: a FIFO or a device is refused).
ast::SourcePtr read_source_file(const std::string& path, std::string& error);

}  // namespace humus::interp
