#include "interpreter/interpreter.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "grammar/diagnostic.hpp"
#include "grammar/parse_cache.hpp"
#include "grammar/parser.hpp"
#include "interpreter/compile/compiler.hpp"
#include "interpreter/compile/script_block.hpp"
#include "interpreter/engine/vm.hpp"
#include "interpreter/modules.hpp"
#include "interpreter/name_check.hpp"
#include "interpreter/read_source.hpp"
#include "runtime/cluster/cluster.hpp"
#ifndef HUMUS_NO_NATS
#include "runtime/cluster/nats_broker.hpp"
#endif
#include "runtime/memory_meter.hpp"

namespace humus::interp {

Interpreter::Interpreter(rt::RuntimeOptions options, const rt::ClusterOptions& cluster)
    : runtime_(std::make_unique<rt::Runtime>(std::move(options))), top_(*runtime_) {
  // The playground's build has no NATS client (interpreter/web/CMakeLists.txt):
  // its cluster is the page alone.
  rt::cluster::Connect connect;
#ifndef HUMUS_NO_NATS
  connect = rt::cluster::connect_nats;
#endif
  runtime_->install(std::make_unique<rt::cluster::Cluster>(*runtime_, cluster, connect));
  runtime_->set_source_viewer([table = sources_](const rt::SourceLoc& loc) -> std::optional<rt::SourceView> {
    ast::SourcePtr source;
    {
      std::lock_guard lock(table->mutex);
      auto it = table->by_name.find(loc.file);
      if (it == table->by_name.end()) return std::nullopt;
      source = it->second;
    }
    const ast::Loc at{loc.line, loc.column};
    return rt::SourceView{parse::char_column(source->text, at), parse::source_window(source->text, at)};
  });
}

static rt::RuntimeOptions borrowing(rt::RuntimeOptions options, Interpreter& base) {
  options.borrowed_globals = &base.runtime().globals();
  return options;
}

Interpreter::Interpreter(rt::RuntimeOptions options, Interpreter& base)
    : Interpreter(borrowing(std::move(options), base)) {
  // What base imported counts as imported here (IMPORT "prelude" does not
  // run it again), and its sources show in runtime errors of its code.
  imported_ = base.imported_;
  module_dirs_ = base.module_dirs_;
  std::lock_guard lock(base.sources_->mutex);
  sources_->by_name = base.sources_->by_name;
}

// Order matters: the workers stop before the compiled code they run is
// freed, and that code (holding pinned constants) goes before the runtime
// frees what it pinned.
Interpreter::~Interpreter() {
  runtime_->stop();
  arena_.clear();
  runtime_.reset();
}

engine::CompiledUnit* Interpreter::load(ast::SourcePtr source, Outcome* outcome, bool* incomplete, ScriptMode mode) {
  return load_with(std::move(source), outcome, incomplete, LoadHow{mode});
}

engine::CompiledUnit* Interpreter::check(ast::SourcePtr source, Outcome* outcome,
                                         const std::function<void(const ast::Stmt&)>& each) {
  return load_with(std::move(source), outcome, nullptr, LoadHow{ScriptMode::Statements, false, each ? &each : nullptr});
}

engine::CompiledUnit* Interpreter::load_with(ast::SourcePtr source, Outcome* outcome, bool* incomplete,
                                             const LoadHow& how) {
  if (incomplete) *incomplete = false;
  // Compiling counts towards --max-memory, and running out of memory
  // while at it is an error of this load, not an abort.
  try {
    rt::memory::CapScope capped(runtime_->limit_flag());
    return load_capped(source, outcome, incomplete, how);  // a copy: the diagnostic below needs it
  } catch (const rt::memory::MemoryCapReached&) {
    runtime_->stop_for_limit(rt::LimitKind::Memory);
  } catch (const std::bad_alloc&) {
    // What compiling made is freed by now; if saying so fails too, memory
    // is full, and the run stops for it.
    try {
      report_source_diagnostic(*source, ast::Loc{}, "error", "out of memory while compiling");
    } catch (const std::bad_alloc&) {
      runtime_->out_of_memory();
    }
  }
  if (outcome) *outcome = Outcome::CompileError;
  return nullptr;
}

engine::CompiledUnit* Interpreter::load_capped(ast::SourcePtr source, Outcome* outcome, bool* incomplete,
                                               const LoadHow& how) {
  auto syntax_error = [&](const parse::Diagnostic& d) -> engine::CompiledUnit* {
    if (incomplete) *incomplete = d.incomplete;
    report_source_diagnostic(*source, d.loc, "error", d.message);
    if (outcome) *outcome = Outcome::SyntaxError;
    return nullptr;
  };
  std::unique_ptr<engine::CompiledUnit> unit;
  std::optional<compile::CompileError> compile_error;
  if (how.mode == ScriptMode::Statements && !source->library && !incomplete) {
    // Each statement is compiled as soon as it is parsed, and its syntax
    // tree freed: a script's whole tree never exists at once (300,000 DEFs
    // took 60 times their source). A syntax error further on still wins
    // over a compile error, as when all was parsed first. (Not for the
    // REPL's input, which may be incomplete and read again with more lines:
    // its statements would be compiled again.)
    compile::UnitCompiler uc(source, runtime_->globals(), arena_, how.keep_code);
    parse::ParseResult parsed = parse::parse_program_each(source, [&](ast::StmtPtr s) {
      if (how.each) (*how.each)(*s);
      if (compile_error) return;
      try {
        uc.add(*s);
      } catch (const compile::CompileError& e) {
        compile_error = e;
      }
    });
    if (!parsed.program) return syntax_error(*parsed.error);
    if (!compile_error) unit = uc.finish();
  } else {
    parse::ParseResult parsed = source->library ? parse::parse_library(source) : parse::parse_program(source);
    if (!parsed.program) return syntax_error(*parsed.error);
    if (how.each)
      for (const auto& st : parsed.program->stmts) (*how.each)(*st);
    if (how.mode == ScriptMode::OneBlock) parsed.program = compile::as_one_block(std::move(*parsed.program));
    try {
      unit = compile::compile_program(*parsed.program, runtime_->globals(), arena_);
    } catch (const compile::CompileError& e) {
      compile_error = e;
    }
  }
  if (compile_error) {
    report_source_diagnostic(*source, compile_error->loc, "error", compile_error->message);
    if (outcome) *outcome = Outcome::CompileError;
    return nullptr;
  }
  size_t warned = 0;
  for (const auto& w : unit->warnings)
    if (!silenced_.count(w.kind) && ++warned <= kMaxListedProblems)
      report_source_diagnostic(*source, w.loc, "warning", w.message);
  if (warned > kMaxListedProblems)
    report_source_diagnostic(*source, ast::Loc{}, "warning",
                             std::to_string(warned - kMaxListedProblems) + " more compile warnings (only the first " +
                                 std::to_string(kMaxListedProblems) + " are listed)");
  engine::CompiledUnit* raw = unit.get();
  arena_.keep(std::move(unit));
  {
    std::lock_guard lock(sources_->mutex);
    sources_->by_name[&source->name] = source;
  }
  if (outcome) *outcome = Outcome::Ok;
  return raw;
}

std::string Interpreter::checks_note() const {
  const rt::RuntimeStats stats = runtime_->stats();
  if (stats.checks_passed == 0 && stats.checks_failed == 0) return "";
  std::string note = "humus: checks: " + std::to_string(stats.checks_passed) + " passed, " +
                     std::to_string(stats.checks_failed) + " failed" + (stats.checks_failed ? ":\n" : "\n");
  const auto failed = runtime_->failed_checks();
  for (const auto& f : failed) note += "  " + f.label + (f.where.empty() ? "" : " " + f.where) + "\n";
  if (stats.checks_failed > failed.size())
    note += "  and " + std::to_string(stats.checks_failed - failed.size()) + " more\n";
  return note;
}

std::string Interpreter::unhandled_note() const {
  const uint64_t n = runtime_->stats().unhandled;
  if (n == 0) return "";
  return "humus: warning: " + std::to_string(n) + (n == 1 ? " message was" : " messages were") +
         " not handled (run with -W to see which)\n";
}

Interpreter::Outcome Interpreter::run(const engine::CompiledUnit& unit,
                                      const std::function<void(const rt::Value&)>& on_value) {
  Outcome result = Outcome::Ok;
  for (const auto& t : unit.stmts) {
    check_failed_ = false;
    Outcome o = run_stmt(unit, *t, on_value);
    if (o == Outcome::Ok) continue;
    // A failed check undoes its own statement only: the checks after it run
    // and are counted too (docs/stdlib/testing.md). Any other error stops.
    if (o == Outcome::RuntimeError && check_failed_ && runtime_->limit_reached() == rt::LimitKind::None) {
      result = o;
      continue;
    }
    return o;
  }
  return result;
}

Interpreter::Outcome Interpreter::run_source(ast::SourcePtr source, ScriptMode mode) {
  Outcome outcome;
  engine::CompiledUnit* unit = load(std::move(source), &outcome, nullptr, mode);
  if (!unit) return outcome;
  return run(*unit);
}

// ---------------------------------------------------------------- IMPORT

namespace fs = std::filesystem;

void Interpreter::report_source_diagnostic(const ast::Source& source, ast::Loc loc, const char* severity,
                                           const std::string& message) {
  if (diagnostic_handler_)
    diagnostic_handler_(
        {source.name, loc.line, loc.line ? parse::char_column(source.text, loc) : 0, severity, message, loc.column});
  else
    runtime_->write_err(parse::format_diagnostic(source, loc, severity, message));
}

void Interpreter::report_import_error(const rt::SourceLoc* loc, const std::string& message) {
  if (diagnostic_handler_)
    diagnostic_handler_(
        {loc ? loc->file_name() : std::string(), loc ? loc->line : 0, loc ? loc->column : 0, "error", message});
  else if (loc)
    runtime_->report_error(rt::EventError{*loc, message, {}}, nullptr, nullptr);
  else
    runtime_->write_err("humus: error: " + message + "\n");
}

Interpreter::Outcome Interpreter::import(const std::string& name, const std::string& from_dir) {
  return import_at(name, from_dir, nullptr);
}

Interpreter::Outcome Interpreter::import_at(const std::string& name, const std::string& from_dir,
                                            const rt::SourceLoc* loc) {
  // An IMPORT statement: Humus code asks, within the rules; a host's
  // import() is the host's business.
  if (loc && importing_.empty()) set_import_root(from_dir);  // the script's folder bounds every IMPORT it leads to
  std::string why;
  std::optional<ModuleFile> found = find_module(name, from_dir, import_rules(loc != nullptr), why);
  if (!found) {
    report_import_error(loc, why);
    return Outcome::RuntimeError;
  }
  if (imported_.count(found->path)) return Outcome::Ok;
  for (size_t i = 0; i < importing_.size(); ++i) {
    if (importing_[i].first != found->path) continue;
    std::string chain;
    for (size_t j = i; j < importing_.size(); ++j) chain += importing_[j].second + " -> ";
    report_import_error(loc, import_cycle_message(chain, found->shown));
    return Outcome::RuntimeError;
  }
  // Within --max-memory from its first byte: a module bigger than that is
  // not read whole before the limit is seen (issue 34).
  ReadLimits limits;
  limits.max_bytes = runtime_->options().limits.max_memory;
  ReadResult got = read_module(name, *found, limits);
  if (got.limit != rt::LimitKind::None) {
    runtime_->stop_for_limit(got.limit);
    return Outcome::RuntimeError;
  }
  if (!got.source) {
    report_import_error(loc, got.error);
    return Outcome::RuntimeError;
  }
  module_dirs_[got.source.get()] = found->dir;
  importing_.emplace_back(found->path, found->shown);
  Outcome outcome = run_source(got.source);
  importing_.pop_back();
  if (outcome == Outcome::Ok) imported_.insert(found->path);
  return outcome;
}

ImportRules Interpreter::import_rules(bool statement) const { return ImportRules{statement, import_root_, sandbox_}; }

void Interpreter::set_import_root(const std::string& dir) {
  std::error_code ec;
  import_root_ = fs::canonical(dir.empty() ? fs::path(".") : fs::path(dir), ec);
  if (ec) import_root_.clear();
}

std::string Interpreter::import_dir(const engine::CompiledUnit& unit) const {
  if (auto it = module_dirs_.find(unit.source.get()); it != module_dirs_.end()) return it->second;
  return unit.source ? folder_of(unit.source->name) : "";
}

// A top-level statement is a message-event of its own, with no actor: its
// effects commit when it succeeds and vanish when it fails.
Interpreter::Outcome Interpreter::run_stmt(const engine::CompiledUnit& unit, const engine::TopStmt& t,
                                           const std::function<void(const rt::Value&)>& on_value) {
  try {
    return run_stmt_body(unit, t, on_value);
  } catch (const std::bad_alloc&) {
    // Memory ran out in the statement's commit, or while reporting its
    // failure: the run stops (docs/reliability.md).
    top_.fx.clear();
    runtime_->out_of_memory();
    return Outcome::RuntimeError;
  }
}

Interpreter::Outcome Interpreter::run_stmt_body(const engine::CompiledUnit& unit, const engine::TopStmt& t,
                                                const std::function<void(const rt::Value&)>& on_value) {
  if (t.kind == engine::TopStmt::Kind::Import) {
    // Effects already committed by earlier statements stay; the module runs
    // its own statements (each its own transaction) before the next one.
    return import_at(t.import, import_dir(unit), &t.source_loc);
  }
  rt::Context& cx = top_;
  rt::Runtime::OutsideScope outside(*runtime_);  // no cycle collection while it makes values
  runtime_->begin_outside(cx);
  auto failed = [&](const rt::EventError& e) {
    runtime_->end_outside(cx, &e, t.source_loc);
    check_failed_ = rt::is_failed_check(e.thrown);
    if (diagnostic_handler_) {
      const rt::SourceLoc& at = e.loc.file ? e.loc : t.source_loc;  // a host function's error: the statement
      diagnostic_handler_({at.file_name(), at.line, at.column, "error", "runtime error: " + e.message});
    } else {
      runtime_->report_error(e, nullptr, nullptr);
    }
    return Outcome::RuntimeError;
  };
  try {
    {
      rt::memory::CapScope capped(runtime_->limit_flag());  // --max-memory holds within the statement, not its commit
      if (t.kind == engine::TopStmt::Kind::Define) {
        runtime_->globals().set(t.slot, engine::function_value(*t.function));
      } else if (t.kind == engine::TopStmt::Kind::Value) {
        rt::Value v = engine::run_top(*t.proto, t.proto->entry_value, cx);
        if (v.is_block()) {
          engine::run_statement_value(std::move(v), t.source_loc, cx);
        } else if (on_value) {
          on_value(v);
        } else if (!v.is_undefined()) {
          // Said without -W too: a script's statement that does nothing is a slip.
          std::string message = "this statement's value is not a block, so it does nothing: " + engine::describe(v, cx);
          if (v.is_symbol()) message += "; a comment starts with '#' and a space";
          runtime_->report_warning(t.source_loc, message, true);
        }
      } else {
        engine::run_top(*t.proto, t.proto->entry_stmt, cx);
      }
    }
    runtime_->end_outside(cx, nullptr, t.source_loc);
    return Outcome::Ok;
  } catch (const rt::memory::MemoryCapReached&) {
    runtime_->stop_for_limit(rt::LimitKind::Memory);  // before: a stopped run reports no error
    return failed(rt::EventError{t.source_loc, "out of memory", rt::Value()});
  } catch (const std::bad_alloc&) {
    const rt::EventError e{t.source_loc, "out of memory", rt::Value()};
    runtime_->end_outside(cx, &e, t.source_loc);  // undone: what it made is freed before looking for room
    check_failed_ = false;
    if (diagnostic_handler_) {
      diagnostic_handler_(
          {t.source_loc.file_name(), t.source_loc.line, t.source_loc.column, "error", "runtime error: out of memory"});
    } else {
      runtime_->report_out_of_memory(t.source_loc, nullptr, nullptr);
    }
    return Outcome::RuntimeError;
  } catch (const rt::EventError& e) {
    return failed(e);
  }
}

ast::SourcePtr read_source_file(const std::string& path, std::string& error) {
  ReadResult r = read_source(path);
  error = std::move(r.error);
  return r.source;
}

}  // namespace humus::interp
