#include "interpreter/lsp/outline.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "interpreter/compile/scopes.hpp"

namespace humus::lsp {

namespace {

Definition::Kind global_kind(const ast::Stmt& s, const std::string& name) {
  if (s.kind == ast::StmtKind::Create) return Definition::Kind::Actor;
  const ast::Equation& eq = *s.equation;
  if (eq.kind == ast::Equation::Kind::FunctionDef) return Definition::Kind::Function;
  if (eq.kind == ast::Equation::Kind::PatternDef && eq.lhs->kind == ast::PatternKind::Bind && eq.lhs->name == name &&
      eq.body->kind == ast::ExprKind::Lambda)
    return Definition::Kind::Function;
  return Definition::Kind::Value;
}

// The length of the string literal starting at byte `from` of `text`.
uint32_t string_length(const std::string& text, size_t from) {
  size_t i = from + 1;
  while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
  return uint32_t(std::min(i + 1, text.size()) - from);
}

size_t offset_of(const std::string& text, ast::Loc loc) {
  size_t off = 0;
  for (uint32_t l = 1; l < loc.line && off < text.size(); ++l) {
    size_t nl = text.find('\n', off);
    if (nl == std::string::npos) return text.size();
    off = nl + 1;
  }
  return std::min(text.size(), off + (loc.column ? loc.column - 1 : 0));
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view l = text.substr(start, nl - start);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back(l);
    start = nl + 1;
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A whole-line comment: '#' followed by whitespace, the end, or another '#'.
bool is_comment(std::string_view line) {
  line = trim(line);
  return !line.empty() && line[0] == '#' && (line.size() == 1 || line[1] == ' ' || line[1] == '\t' || line[1] == '#');
}

}  // namespace

OutlineBuilder::OutlineBuilder(ast::SourcePtr source, bool every_name)
    : source_(std::move(source)),
      walker_(
          [this](const std::string& name, ast::Loc at, std::optional<ast::Loc> binder) {
            int def = binder ? define(name, *binder, Definition::Kind::Local, -1) : -1;
            // A top-level function's name inside its own body is the global.
            if (def >= 0 && out_.definitions[size_t(def)].global()) def = -1;
            out_.occurrences.push_back({intern(name), at, def, false});
          },
          [this](const std::string& name, ast::Loc at) { define(name, at, Definition::Kind::Local, -1); }) {
  out_.every_name = every_name;
}

int OutlineBuilder::define(const std::string& name, ast::Loc at, Definition::Kind kind, int stmt) {
  auto [it, added] = by_place_.try_emplace(uint64_t(at.line) << 32 | at.column, int(out_.definitions.size()));
  if (!added) return it->second;
  const std::string* interned = intern(name);
  out_.definitions.push_back({interned, at, kind, stmt});
  // A global is looked up by name (a later definition replaces it), a local by its binder.
  const bool global = kind != Definition::Kind::Local;
  if (out_.every_name) out_.occurrences.push_back({interned, at, global ? -1 : it->second, true});
  return it->second;
}

void OutlineBuilder::add(const ast::Stmt& s, std::optional<size_t> start) {
  const int i = int(out_.statements.size());
  const size_t first = out_.occurrences.size();
  out_.statements.push_back(s.loc);
  // (Past 4 GB, none: the outline is then made whole after each edit.)
  if (start && *start <= UINT32_MAX && out_.statement_bytes.size() == out_.statements.size() - 1)
    out_.statement_bytes.push_back(uint32_t(*start));
  if (s.kind == ast::StmtKind::Import) {
    const std::string& text = source_->text;
    out_.imports.push_back({s.name, s.loc, s.name_loc, string_length(text, offset_of(text, s.name_loc))});
    return;
  }
  // Top-level LET, DEF and CREATE define globals.
  for (const auto& [name, at] : compile::statement_binders(s)) define(name, at, global_kind(s, name), i);
  if (out_.every_name) walker_.statement(s);
  // A binder belongs to one statement: the next one need not find it.
  by_place_.clear();
  // Statements come in source order and each one's names lie within it:
  // sorting each one's sorts them all.
  std::stable_sort(out_.occurrences.begin() + std::ptrdiff_t(first), out_.occurrences.end(),
                   [](const Occurrence& a, const Occurrence& b) { return before(a.loc, b.loc); });
}

// Not shrunk to fit: shrinking copies, and the copy beside the original
// was the server's peak memory.
Outline OutlineBuilder::finish() { return std::move(out_); }

Outline make_outline(const ast::Program& program) {
  OutlineBuilder b(program.source);
  for (const auto& s : program.stmts) b.add(*s);
  return b.finish();
}

const Occurrence* Outline::at(uint32_t line, uint32_t column) const {
  auto it = std::upper_bound(occurrences.begin(), occurrences.end(), ast::Loc{line, column},
                             [](ast::Loc l, const Occurrence& o) { return before(l, o.loc); });
  while (it != occurrences.begin()) {
    --it;
    if (it->loc.line != line) break;
    if (column >= it->loc.column && column < it->loc.column + it->name->size()) return &*it;
  }
  return nullptr;
}

const Definition* Outline::global(const std::string& name) const {
  for (auto it = definitions.rbegin(); it != definitions.rend(); ++it)
    if (it->global() && *it->name == name) return &*it;
  return nullptr;
}

DefinitionText definition_text(const ast::Source& source, const Outline& outline, const Definition& d,
                               unsigned max_lines) {
  DefinitionText out;
  const auto lines = split_lines(source.text);
  auto line = [&](uint32_t n) { return n >= 1 && n <= lines.size() ? lines[n - 1] : std::string_view(); };
  if (!d.global()) {
    out.code = std::string(trim(line(d.loc.line)));
    return out;
  }
  const ast::Loc start = outline.statements[size_t(d.stmt)];
  const bool has_next = size_t(d.stmt) + 1 < outline.statements.size();
  const ast::Loc next = has_next ? outline.statements[size_t(d.stmt) + 1] : ast::Loc{uint32_t(lines.size()) + 1, 1};
  // Bytes [from, to) of a line (1-based columns), clamped to it.
  auto part = [&](uint32_t n, uint32_t from, uint32_t to) {
    std::string_view l = line(n);
    size_t a = std::min<size_t>(from - 1, l.size());
    return std::string(l.substr(a, std::min<size_t>(to - 1, l.size()) - a));
  };
  constexpr uint32_t kWhole = UINT32_MAX;
  std::string code;
  if (next.line == start.line) {  // two statements on one line
    code = part(start.line, start.column, next.column);
  } else {
    // Up to the next statement, without the blank and comment lines before
    // it, and with the text before it on its own line (`] DEF next ...`).
    uint32_t last = next.line - 1;
    while (last > start.line && (trim(line(last)).empty() || is_comment(line(last)))) --last;
    for (uint32_t n = start.line; n <= last && n < start.line + max_lines; ++n)
      code += part(n, n == start.line ? start.column : 1, kWhole) + "\n";
    if (last >= start.line + max_lines)
      code += "...";
    else if (has_next && !trim(part(next.line, 1, next.column)).empty())
      code += part(next.line, 1, next.column);
  }
  while (!code.empty() && (code.back() == '\n' || code.back() == ' ' || code.back() == '\t')) code.pop_back();
  out.code = code;
  const uint32_t first = start.line;
  // The comment block right above the statement, when it begins its line.
  if (d.stmt > 0 && outline.statements[size_t(d.stmt) - 1].line == first) return out;
  std::vector<std::string_view> comment;
  for (uint32_t n = first - 1; n >= 1 && is_comment(line(n)); --n) comment.push_back(trim(line(n)));
  std::reverse(comment.begin(), comment.end());
  for (std::string_view c : comment) {
    c.remove_prefix(std::min<size_t>(c.find_first_not_of('#'), c.size()));
    out.comment += std::string(trim(c)) + "\n";
  }
  while (!out.comment.empty() && out.comment.back() == '\n') out.comment.pop_back();
  return out;
}

}  // namespace humus::lsp
