#include "interpreter/interpreter.hpp"

#include <fstream>
#include <sstream>

#include "grammar/diagnostic.hpp"
#include "grammar/parser.hpp"
#include "interpreter/compiler.hpp"

namespace humus::interp {

Interpreter::Interpreter(rt::RuntimeOptions options)
    : runtime_(std::make_unique<rt::Runtime>(std::move(options))), top_(*runtime_) {}

// Order matters: the workers stop before the compiled code they run is
// freed, and that code (holding pinned constants) goes before the runtime
// frees what it pinned.
Interpreter::~Interpreter() {
  runtime_->stop();
  arena_.clear();
  runtime_.reset();
}

CompiledUnit* Interpreter::load(ast::SourcePtr source, Outcome* outcome, bool* incomplete) {
  if (incomplete) *incomplete = false;
  parse::ParseResult parsed = parse::parse_program(source);
  if (!parsed.program) {
    const parse::Diagnostic& d = *parsed.error;
    if (incomplete) *incomplete = d.incomplete;
    runtime_->write_err(parse::format_diagnostic(*source, d.loc, "error", d.message));
    if (outcome) *outcome = Outcome::SyntaxError;
    return nullptr;
  }
  try {
    auto unit = compile_program(*parsed.program, *runtime_, arena_);
    for (const auto& w : unit->warnings)
      runtime_->write_err(parse::format_diagnostic(*source, w.loc, "warning", w.message));
    CompiledUnit* raw = unit.get();
    arena_.keep(std::move(unit));
    if (outcome) *outcome = Outcome::Ok;
    return raw;
  } catch (const CompileError& e) {
    runtime_->write_err(parse::format_diagnostic(*source, e.loc, "error", e.message));
    if (outcome) *outcome = Outcome::CompileError;
    return nullptr;
  }
}

Interpreter::Outcome Interpreter::run(const CompiledUnit& unit, const std::function<void(const rt::Value&)>& on_value) {
  for (const auto& t : unit.stmts)
    if (!run_stmt(*t, on_value)) return Outcome::RuntimeError;
  return Outcome::Ok;
}

Interpreter::Outcome Interpreter::run_source(ast::SourcePtr source) {
  Outcome outcome;
  CompiledUnit* unit = load(std::move(source), &outcome);
  if (!unit) return outcome;
  return run(*unit);
}

// A top-level statement is a message-event of its own, with no actor: its
// effects commit when it succeeds and vanish when it fails.
bool Interpreter::run_stmt(const TopStmt& t, const std::function<void(const rt::Value&)>& on_value) {
  rt::Context& cx = top_;
  HUMUS_FRAME(f, t.layout.slots, nullptr, cx);
  try {
    if (t.is_import) rt::runtime_error(t.source_loc, "IMPORT is not supported yet");
    rt::run_blocks(t.body.run(f), cx);
    for (auto [slot, global] : t.publish) runtime_->globals().set(global, f.slots[slot]);
    if (t.expr) {
      rt::Value v = t.expr->eval(f);
      if (v.is_block()) {
        rt::run_blocks(std::move(v), cx);
      } else if (on_value) {
        on_value(v);
      } else if (!v.is_undefined()) {
        rt::runtime_error(t.source_loc, "a top-level statement must give a block or ?, not " + describe(v));
      }
    }
    runtime_->commit(cx);
    return true;
  } catch (const rt::EventError& e) {
    cx.fx.clear();
    runtime_->report_error(e, nullptr, nullptr);
    return false;
  }
}

ast::SourcePtr read_source_file(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "'";
    return nullptr;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    error = "cannot read '" + path + "'";
    return nullptr;
  }
  return std::make_shared<ast::Source>(ast::Source{path, text.str()});
}

}  // namespace humus::interp
