#include "interpreter/lsp/analysis.hpp"

#include <filesystem>
#include <set>

#include "grammar/parser.hpp"
#include "interpreter/interpreter.hpp"
#include "interpreter/lsp/builtins.hpp"

namespace humus::lsp {

namespace {

// Compiles the program as `humus --check` does, in a runtime of its own
// that never runs: the compile errors and warnings, with their locations.
void compile(const ast::SourcePtr& source, std::vector<Diagnostic>& out) {
  rt::RuntimeOptions options;
  options.threads = 1;
  options.out = [](std::string_view) {};
  options.err = [](std::string_view) {};
  interp::Interpreter interp(std::move(options));
  interp.set_diagnostic_handler([&](const interp::Interpreter::Diagnostic& d) {
    out.push_back({{d.line, d.column},
                   0,
                   d.severity == "warning" ? Diagnostic::Severity::Warning : Diagnostic::Severity::Error,
                   d.message});
  });
  interp.load(source);
}

// Loads `m` and, depth first, what it imports, each once.
void add_module(const std::shared_ptr<const Module>& m, Modules& modules, std::set<std::string>& seen,
                std::vector<std::shared_ptr<const Module>>& out, bool& complete) {
  if (!m || !seen.insert(m->path).second) return;
  if (m->error) complete = false;  // its names are unknown
  const std::string folder = std::filesystem::path(m->path).parent_path().string();
  for (const Import& i : m->outline.imports) {
    std::string why;
    auto sub = modules.find(i.module, folder, why);
    if (!sub) complete = false;
    add_module(sub, modules, seen, out, complete);
  }
  out.push_back(m);
}

}  // namespace

Analysis analyze(ast::SourcePtr source, const std::string& folder, Modules& modules) {
  Analysis a;
  a.source = source;
  parse::ParseResult parsed = parse::parse_program(source);
  if (!parsed.program) {
    a.diagnostics.push_back({parsed.error->loc, 0, Diagnostic::Severity::Error, parsed.error->message});
    return a;
  }
  a.parsed = true;
  a.outline = make_outline(*parsed.program);
  compile(source, a.diagnostics);

  // The prelude and the imports, with an error where an IMPORT cannot be
  // found or names a module that does not parse.
  std::set<std::string> seen;
  bool complete = true;
  std::string why;
  auto prelude = modules.find("prelude", "", why);
  if (!prelude) complete = false;
  add_module(prelude, modules, seen, a.modules, complete);
  for (const Import& i : a.outline.imports) {
    auto m = modules.find(i.module, folder, why);
    a.imported.push_back(m);
    if (!m) {
      a.diagnostics.push_back({i.string_loc, i.string_length, Diagnostic::Severity::Error, why});
      complete = false;
    } else if (m->error) {
      a.diagnostics.push_back({i.string_loc, i.string_length, Diagnostic::Severity::Error,
                               "module " + m->shown + " does not parse: " + std::to_string(m->error->loc.line) + ":" +
                                   std::to_string(m->error->loc.column) + ": " + m->error->message});
    }
    add_module(m, modules, seen, a.modules, complete);
  }

  // A global used but defined nowhere is an error when the use runs. Only
  // said when every import was read (otherwise the name may be there).
  if (complete) {
    for (const Occurrence& o : a.outline.occurrences) {
      if (o.is_definition || o.definition >= 0 || builtin_doc(o.name) || find_global(a, o.name)) continue;
      a.diagnostics.push_back({o.loc, uint32_t(o.name.size()), Diagnostic::Severity::Warning,
                               "'" + o.name + "' is not defined in this file, its imports or the prelude"});
    }
  }
  return a;
}

std::optional<GlobalDefinition> find_global(const Analysis& a, const std::string& name) {
  if (const Definition* d = a.outline.global(name)) return GlobalDefinition{nullptr, d};
  for (auto it = a.modules.rbegin(); it != a.modules.rend(); ++it)
    if (const Definition* d = (*it)->outline.global(name)) return GlobalDefinition{it->get(), d};
  return std::nullopt;
}

}  // namespace humus::lsp
