#include "interpreter/session.hpp"

#include <utility>

namespace humus::interp {

Session::Session(Options options) : options_(std::move(options)), interp_(options_.runtime, options_.cluster) {
  interp_.set_sandbox(options_.sandbox);
  for (const auto& kind : options_.silenced) interp_.silence_warnings(kind);
  if (options_.diagnostics) interp_.set_diagnostic_handler(options_.diagnostics);
}

Session::Outcome Session::open() { return options_.prelude ? interp_.load_prelude() : Outcome::Ok; }

Session::Compiled Session::compile(ast::SourcePtr source, const Entry& how, bool want_incomplete) {
  Compiled c;
  // Diagnostics only: each statement's code goes once compiled (a script
  // run as one block is compiled whole either way).
  if (!how.keep_code && how.mode == Interpreter::ScriptMode::Statements)
    c.unit = interp_.check(std::move(source), &c.outcome, how.each);
  else
    c.unit = interp_.load(std::move(source), &c.outcome, want_incomplete ? &c.incomplete : nullptr, how.mode);
  if (!c.unit || how.names == Names::Unchecked) return c;
  if (!interp_.check_names(*c.unit, how.names == Names::Errors)) c.outcome = Outcome::CompileError;
  return c;
}

Session::Outcome Session::run(const engine::CompiledUnit& unit, const Entry& how) {
  return interp_.run(unit, how.on_value);
}

Session::Outcome Session::enter(ast::SourcePtr source, const Entry& how) {
  Compiled c = compile(std::move(source), how);
  if (c.outcome != Outcome::Ok || !how.keep_code) return c.outcome;
  return run(*c.unit, how);
}

Session::Ending Session::ending(Outcome last) const {
  const rt::Runtime& rt = interp_.runtime();
  switch (rt.limit_reached()) {
    case rt::LimitKind::None:
      break;
    case rt::LimitKind::Interrupted:
      return Ending::Interrupted;
    default:
      return Ending::Stopped;
  }
  if (last == Outcome::SyntaxError || last == Outcome::CompileError) return Ending::Rejected;
  if (last == Outcome::RuntimeError || rt.had_error()) return Ending::Failed;
  return Ending::Ok;
}

std::string Session::notes(bool unhandled) const {
  return (unhandled ? interp_.unhandled_note() : std::string()) + interp_.checks_note();
}

}  // namespace humus::interp
