#include "interpreter/lsp/completion.hpp"

#include <algorithm>
#include <set>

#include "grammar/hints.hpp"
#include "interpreter/lsp/builtins.hpp"
#include "runtime/builtins/devices.hpp"
#include "runtime/builtins/functions.hpp"
#include "runtime/globals.hpp"

namespace humus::lsp {

namespace {

Completion::Kind kind_of(const Definition& d) {
  switch (d.kind) {
    case Definition::Kind::Function:
      return Completion::Kind::Function;
    case Definition::Kind::Actor:
      return Completion::Kind::Actor;
    case Definition::Kind::Value:
      return Completion::Kind::Value;
    case Definition::Kind::Local:
      break;
  }
  return Completion::Kind::Local;
}

// The top-level statement of `outline` that `line` is in (0 when before all).
size_t statement_at(const Outline& outline, uint32_t line) {
  size_t i = 0;
  while (i + 1 < outline.statements.size() && outline.statements[i + 1].line <= line) ++i;
  return i;
}

}  // namespace

std::vector<Completion> complete(const Analysis& a, uint32_t line, std::string_view prefix) {
  std::vector<Completion> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& label, Completion::Kind kind, std::string detail) {
    if (!label.starts_with(prefix) || rt::Globals::is_internal(label) || !seen.insert(label).second) return;
    out.push_back({label, kind, std::move(detail)});
  };
  // Nearest first: a local hides a global of its name, the document a module's.
  const Outline here = statement_outline(a, statement_at(a.outline, line));
  for (const Definition& d : here.definitions)
    if (!d.global()) add(*d.name, Completion::Kind::Local, "local");
  for (const Definition& d : a.outline.definitions)
    if (d.global()) add(*d.name, kind_of(d), "this file");
  for (auto m = a.modules.rbegin(); m != a.modules.rend(); ++m)
    for (const Definition& d : (*m)->outline.definitions)
      if (d.global()) add(*d.name, kind_of(d), (*m)->shown);
  for (const rt::BuiltinFunction& f : rt::builtin_table()) add(f.name, Completion::Kind::Builtin, "built-in");
  for (const rt::DeviceDoc& d : rt::device_docs()) add(d.name, Completion::Kind::BuiltinActor, "built-in actor");
  for (const std::string& k : parse::keyword_names()) add(k, Completion::Kind::Keyword, "keyword");
  std::sort(out.begin(), out.end(), [](const Completion& x, const Completion& y) { return x.label < y.label; });
  return out;
}

}  // namespace humus::lsp
