#include "interpreter/lsp/analysis.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <unordered_set>

#include "grammar/parser.hpp"
#include "interpreter/lsp/builtins.hpp"
#include "interpreter/name_check.hpp"
#include "interpreter/session.hpp"

namespace humus::lsp {

namespace {

// Loads `m` and, depth first, what it imports, each once.
void add_module(const std::shared_ptr<const Module>& m, const std::string& root, Modules& modules,
                std::set<std::string>& seen, std::vector<std::shared_ptr<const Module>>& out, bool& complete) {
  if (!m || !seen.insert(m->path).second) return;
  if (m->error) complete = false;  // its names are unknown
  const std::string folder = std::filesystem::path(m->path).parent_path().string();
  for (const Import& i : m->outline.imports) {
    std::string why;
    auto sub = modules.find_import(i.module, folder, root, why);
    if (!sub) complete = false;
    add_module(sub, root, modules, seen, out, complete);
  }
  out.push_back(m);
}

}  // namespace

Analysis outline_document(ast::SourcePtr source, const std::string& folder, Modules& modules, bool every_name) {
  Analysis a;
  a.source = source;
  OutlineBuilder outline(source, every_name);
  parse::ParseResult parsed =
      parse::parse_statements_from(source, std::nullopt, [&](ast::StmtPtr s, size_t start, size_t) {
        outline.add(*s, start);
        return true;
      });
  if (!parsed.program) {
    a.diagnostics.push_back({parsed.error->loc, 0, Diagnostic::Severity::Error, parsed.error->message});
    return a;
  }
  a.parsed = true;
  a.outline = outline.finish();
  find_modules(a, folder, modules);
  return a;
}

// The prelude and the imports, with an error where an IMPORT cannot be
// found or names a module that does not parse.
void find_modules(Analysis& a, const std::string& folder, Modules& modules) {
  a.diagnostics.clear();
  a.modules.clear();
  a.imported.clear();
  std::set<std::string> seen;
  bool complete = true;
  std::string why;
  auto prelude = modules.find("prelude", "", why);
  if (!prelude) complete = false;
  add_module(prelude, folder, modules, seen, a.modules, complete);
  for (const Import& i : a.outline.imports) {
    auto m = modules.find_import(i.module, folder, folder, why);
    a.imported.push_back(m);
    if (!m) {
      a.diagnostics.push_back({i.string_loc, i.string_length, Diagnostic::Severity::Error, why});
      complete = false;
    } else if (m->error) {
      a.diagnostics.push_back({i.string_loc, i.string_length, Diagnostic::Severity::Error,
                               "module " + m->shown + " does not parse: " + std::to_string(m->error->loc.line) + ":" +
                                   std::to_string(m->error->loc.column) + ": " + m->error->message});
    }
    add_module(m, folder, modules, seen, a.modules, complete);
  }
  a.complete = complete;
}

Outline statement_outline(const Analysis& a, size_t stmt) {
  OutlineBuilder builder(a.source);
  const std::vector<uint32_t>& bytes = a.outline.statement_bytes;
  if (!a.parsed || stmt >= bytes.size()) return builder.finish();
  const parse::Resume at{bytes[stmt], position_of(a.source->text, bytes[stmt])};
  parse::parse_statements_from(a.source, at, [&](ast::StmtPtr s, size_t start, size_t) {
    builder.add(*s, start);
    return false;  // that one only
  });
  Outline o = builder.finish();
  for (Definition& d : o.definitions)
    if (d.stmt >= 0) d.stmt = int(stmt);
  return o;
}

std::optional<size_t> statement_at_byte(const Outline& o, size_t byte) {
  const auto& bytes = o.statement_bytes;
  auto it = std::upper_bound(bytes.begin(), bytes.end(), byte);
  if (it == bytes.begin()) return std::nullopt;
  return size_t(it - bytes.begin()) - 1;
}

ast::Loc position_of(std::string_view text, size_t byte) {
  const std::string_view before_it = text.substr(0, byte);
  const size_t line_start = before_it.rfind('\n') + 1;  // npos + 1 = 0
  return {uint32_t(1 + std::count(before_it.begin(), before_it.end(), '\n')), uint32_t(byte - line_start + 1)};
}

CheckInput check_input(const Analysis& a) {
  CheckInput in{a.source, a.complete, {}};
  if (in.judge_names)
    for (const auto& m : a.modules)
      for (const Definition& d : m->outline.definitions)
        if (d.global()) in.known.push_back(*d.name);
  return in;
}

// Each statement goes to a compile for diagnostics only (its code dropped
// at once), in a runtime of its own that never runs; then the names read
// but defined nowhere, by the command line's own check
// (interpreter/name_check.hpp): the same messages and severities in the
// editor as in a run.
std::vector<Diagnostic> check_document(const CheckInput& in) {
  std::vector<Diagnostic> out;
  interp::Session::Options so;
  so.runtime.threads = 1;
  so.runtime.out = [](std::string_view) {};
  so.runtime.err = [](std::string_view) {};
  so.prelude = false;  // its names come from the module cache, read once for every document
  so.diagnostics = [&](const interp::Interpreter::Diagnostic& d) {
    out.push_back({{d.line, d.byte_column ? d.byte_column : d.column},
                   0,
                   d.severity == "warning" ? Diagnostic::Severity::Warning : Diagnostic::Severity::Error,
                   d.message});
  };
  interp::Session session(std::move(so));
  interp::Session::Entry entry;
  entry.keep_code = false;
  entry.names = interp::Session::Names::Unchecked;  // judged below, against the modules' names
  const interp::Session::Compiled c = session.compile(in.source, entry);
  if (c.unit && in.judge_names) {
    std::unordered_set<std::string> defined(c.unit->global_defs.begin(), c.unit->global_defs.end());
    defined.insert(in.known.begin(), in.known.end());
    if (builtin_doc("cluster")) defined.insert("cluster");  // bound only on a node of a cluster
    for (const auto& [name, value] : session.runtime().globals().bound()) defined.insert(name);
    for (const interp::NameProblem& p : interp::undefined_names(*c.unit, defined, true))
      out.push_back(
          {p.loc, p.length, p.error ? Diagnostic::Severity::Error : Diagnostic::Severity::Warning, p.message});
  }
  return out;
}

Analysis analyze(ast::SourcePtr source, const std::string& folder, Modules& modules) {
  Analysis a = outline_document(source, folder, modules);
  if (!a.parsed) return a;
  std::vector<Diagnostic> checked = check_document(check_input(a));
  a.diagnostics.insert(a.diagnostics.begin(), checked.begin(), checked.end());
  return a;
}

std::optional<GlobalDefinition> find_global(const Analysis& a, const std::string& name) {
  if (const Definition* d = a.outline.global(name)) return GlobalDefinition{nullptr, d};
  for (auto it = a.modules.rbegin(); it != a.modules.rend(); ++it)
    if (const Definition* d = (*it)->outline.global(name)) return GlobalDefinition{it->get(), d};
  return std::nullopt;
}

}  // namespace humus::lsp
