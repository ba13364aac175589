#include "runtime/reporter.hpp"

#include "runtime/code.hpp"
#include "runtime/symbols.hpp"

namespace humus::rt {

void Reporter::write(std::string_view text) const {
  std::lock_guard lock(err_mutex_);
  err_(text);
}

std::string Reporter::location(const SourceLoc& loc) const {
  uint32_t column = loc.column;
  if (source_viewer_ && loc.file && loc.line)
    if (auto view = source_viewer_(loc)) column = view->column;
  return loc.file_name() + ":" + std::to_string(loc.line) + ":" + std::to_string(column);
}

// What has no place in a program (a built-in actor's failure or message,
// running out of memory) says so, not "<builtin>:0:0".
std::string Reporter::headline(const SourceLoc& loc, std::string_view kind) const {
  return (loc.file || loc.line ? location(loc) : std::string("humus")) + ": " + std::string(kind);
}

void Reporter::error(const EventError& e, const Actor* actor, const Value* message) {
  errors_.fetch_add(1, std::memory_order_relaxed);
  if (is_failed_check(e.thrown)) note_failed_check(e, actor);
  std::optional<SourceView> view;
  if (source_viewer_ && e.loc.file && e.loc.line) view = source_viewer_(e.loc);
  std::string text = headline(e.loc, "runtime error");
  if (actor) text += " in actor " + actor_label(*actor);
  text += ": " + e.message + "\n";
  if (view) text += view->window;
  if (message) text += "  while handling message: " + shown(*message) + "\n";
  write(text);
}

void Reporter::warning(const SourceLoc& loc, const std::string& message) const {
  write(headline(loc, "warning") + ": " + message + "\n");
}

void Reporter::unhandled(const Actor& actor, const Value& message) const {
  SourceLoc loc;
  if (actor.behavior.is(ObjKind::Closure)) loc = actor.behavior.as<Closure>()->code->loc;
  warning(loc, "actor " + actor_label(actor) + " did not handle message: " + shown(message));
}

bool is_failed_check(const Value& thrown) {
  static const uint32_t fail = intern_symbol("FAIL");
  return thrown.is_pair() && head(thrown).is_symbol() && head(thrown).symbol_id() == fail;
}

// Where a check failed, for the tally: the program's line (a failure raised
// in the library is blamed on the program's call into it), and the actor.
// A failure of the library's own behaviors (expect_beh...) has no line of
// the program's: the actor, with its CREATE name, says which check it was.
void Reporter::note_failed_check(const EventError& e, const Actor* actor) {
  checks_failed_.fetch_add(1, std::memory_order_relaxed);
  const Value& rest = tail(e.thrown);
  FailedCheck f{to_string(rest.is_pair() ? head(rest) : rest, shown_), ""};
  if (e.loc.file && !(e.in_library && actor)) f.where = "at " + location(e.loc);
  if (actor) f.where += (f.where.empty() ? "in actor " : ", in actor ") + actor_label(*actor);
  std::lock_guard lock(failed_checks_mutex_);
  if (failed_checks_.size() < kFailedChecksKept) failed_checks_.push_back(std::move(f));
}

std::vector<FailedCheck> Reporter::failed_checks() const {
  std::lock_guard lock(failed_checks_mutex_);
  return failed_checks_;
}

}  // namespace humus::rt
