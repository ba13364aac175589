// Name checking before a run (Interpreter::check_names): a misspelt name is
// reported before anything runs, not when (or if) the code reaching it runs.
#include <filesystem>

#include "grammar/hints.hpp"
#include "grammar/parser.hpp"
#include "grammar/suggest.hpp"
#include "interpreter/compile/dataflow.hpp"
#include "interpreter/interpreter.hpp"
#include "interpreter/name_check.hpp"

namespace humus::interp {

bool Interpreter::imported_names(const std::vector<std::string>& imports, const std::string& dir,
                                 std::unordered_set<std::string>& defined, std::set<std::string>& seen) {
  for (const std::string& name : imports) {
    // What the IMPORT statement itself would refuse is never read here either.
    std::string why;
    std::optional<ModuleFile> found = find_module(name, dir, import_rules(true), why);
    if (!found) return false;
    if (!seen.insert(found->path).second) continue;  // run already, or read ahead already
    ReadResult read = read_module(name, *found);
    if (!read.source) return false;
    parse::ParseResult parsed = parse::parse_program(read.source);
    if (!parsed.program) return false;
    std::vector<std::string> inner;
    for (const auto& s : parsed.program->stmts) {
      if (s->kind == ast::StmtKind::Import)
        inner.push_back(s->name);
      else
        for (const auto& [bound, loc] : compile::statement_binders(*s)) defined.insert(bound);
    }
    if (!imported_names(inner, found->dir, defined, seen)) return false;
  }
  return true;
}

std::vector<NameProblem> undefined_names(const engine::CompiledUnit& unit,
                                         const std::unordered_set<std::string>& defined, bool errors) {
  // What a misspelt name may have meant: made at the first one (a copy of
  // every name; 6 MB of the check's 30 of a 100,000-DEF script that needs none).
  std::vector<std::string> candidates;
  bool have_candidates = false;
  std::vector<NameProblem> out;
  std::set<uint32_t> explained;  // lines where a hint explains the other names too
  size_t omitted = 0;
  bool omitted_error = false;
  for (const engine::GlobalUse& use : unit.global_reads) {
    if (defined.count(use.name)) continue;
    if (!errors && use.immediate) continue;  // the runtime error says it, with the same suggestions
    const bool error = errors && use.immediate;
    const ast::Loc loc = error ? use.immediate_loc : use.loc;
    if (explained.count(loc.line)) continue;
    if (out.size() >= kMaxListedProblems) {
      ++omitted;
      omitted_error = omitted_error || error;
      continue;
    }
    std::string hint = parse::undefined_name_hint(unit.source->text, loc, use.name);
    if (!hint.empty())
      explained.insert(loc.line);
    else {
      if (!have_candidates)
        for (const std::string& name : defined)
          if (!rt::Globals::is_internal(name)) candidates.push_back(name);
      have_candidates = true;
      hint = parse::did_you_mean(parse::closest_names(use.name, candidates));
    }
    std::string message = "'" + use.name + "' is not defined" + hint;
    if (!error && errors) message += " (a runtime error if this code runs)";
    out.push_back({loc, uint32_t(use.name.size()), error, std::move(message)});
  }
  if (omitted)
    out.push_back({ast::Loc{}, 0, omitted_error,
                   std::to_string(omitted) + " more " + (omitted == 1 ? "name is" : "names are") +
                       " not defined (only the first " + std::to_string(kMaxListedProblems) + " are listed)"});
  return out;
}

bool Interpreter::check_names(const engine::CompiledUnit& unit, bool as_errors) {
  std::unordered_set<std::string> defined(unit.global_defs.begin(), unit.global_defs.end());
  for (const auto& [name, value] : runtime_->globals().bound()) defined.insert(name);
  std::vector<std::string> imports;
  for (const auto& t : unit.stmts)
    if (t->kind == engine::TopStmt::Kind::Import) imports.push_back(t->import);
  if (!imports.empty()) {
    // The bound IMPORT statements of a script keep to (import_at sets the same).
    if (importing_.empty()) set_import_root(import_dir(unit));
    std::set<std::string> seen = imported_;
    if (!imported_names(imports, import_dir(unit), defined, seen)) return true;
  }
  bool ok = true;
  for (const NameProblem& p : undefined_names(unit, defined, as_errors)) {
    if (p.error) ok = false;
    report_source_diagnostic(*unit.source, p.loc, p.error ? "error" : "warning", p.message);
  }
  return ok;
}

}  // namespace humus::interp
