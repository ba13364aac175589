// What the language server knows of a parsed program: its top-level
// statements, the names they define, every name written in it and what
// that name refers to, and its IMPORTs. Built from the AST with the
// compiler's own scope rules (compile/scopes.hpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/compile/scopes.hpp"

namespace humus::lsp {

// Whether a comes before b in the text.
inline bool before(ast::Loc a, ast::Loc b) { return a.line != b.line ? a.line < b.line : a.column < b.column; }

struct Definition {
  enum class Kind : uint8_t { Function, Value, Actor, Local };
  const std::string* name = nullptr;  // in Outline::names
  ast::Loc loc;                       // of the name where it is bound
  Kind kind = Kind::Local;
  int stmt = -1;  // the top-level statement that defines it (globals only)
  bool global() const { return kind != Kind::Local; }
};

// A name as written in the source.
struct Occurrence {
  const std::string* name = nullptr;  // in Outline::names (or a string the holder keeps)
  ast::Loc loc;
  // The local definition it refers to (an index into Outline::definitions),
  // or -1: a global, found by name when the program runs.
  int definition = -1;
  bool is_definition = false;  // the binding itself (a DEF's name, a parameter)
};

struct Import {
  std::string module;          // as written: "fifo", "lib/util.hum"
  ast::Loc loc;                // of the IMPORT statement
  ast::Loc string_loc;         // of the module's string
  uint32_t string_length = 0;  // in bytes, quotes included
};

struct Outline {
  // Each name once, definitions and occurrences pointing into it: a big
  // document writes a few distinct names many times (its outline took 48
  // bytes an occurrence, 24 now). Shared by copies.
  std::shared_ptr<std::unordered_set<std::string>> names = std::make_shared<std::unordered_set<std::string>>();
  std::vector<ast::Loc> statements;       // where each top-level statement starts
  std::vector<uint32_t> statement_bytes;  // the same as byte offsets, when built from the text (else empty), below 4 GB
  std::vector<Definition> definitions;    // globals (top level) and locals, in source order
  std::vector<Occurrence> occurrences;    // sorted by position
  std::vector<Import> imports;
  // Whether every name written and every local is here. A document's
  // outline has the top level only (statements, globals, IMPORTs): its
  // names were most of the server's memory (400,000 at 24 bytes in a
  // 100,000-line document), and a request finds those of the statement it
  // is about again, by parsing it (lsp::statement_outline).
  bool every_name = true;

  // The occurrence whose name covers the byte column on a line (1-based), if any.
  const Occurrence* at(uint32_t line, uint32_t column) const;
  // The global definition of `name` in this program (the last one, which wins).
  const Definition* global(const std::string& name) const;
};

Outline make_outline(const ast::Program& program);

// The same, one top-level statement at a time as the parser hands them over
// (parse::parse_program_each), so that the whole syntax tree of a big
// document never exists at once.
class OutlineBuilder {
 public:
  explicit OutlineBuilder(ast::SourcePtr source, bool every_name = true);
  // `start`: the statement's first byte in the text, when known.
  void add(const ast::Stmt& s, std::optional<size_t> start = std::nullopt);
  Outline finish();
  // The names interned in `names` rather than a set of the builder's own
  // (a re-parse adds to the outline it will be spliced into).
  void share_names(std::shared_ptr<std::unordered_set<std::string>> names) { out_.names = std::move(names); }

 private:
  int define(const std::string& name, ast::Loc at, Definition::Kind kind, int stmt);
  const std::string* intern(const std::string& name) { return &*out_.names->insert(name).first; }

  ast::SourcePtr source_;
  Outline out_;
  // Each binder is one definition, found again by its place (line and
  // column: one name is bound at a place) when used.
  std::map<uint64_t, int> by_place_;
  compile::ScopeWalker walker_;
};

// The source of a definition for a reader: the comment lines right above a
// top-level definition and the statement itself (up to the next one, at most
// `max_lines` lines), or the line of a local binding. Trailing blank lines
// and comments are left out.
struct DefinitionText {
  std::string comment;  // without the '#' marks
  std::string code;
};
DefinitionText definition_text(const ast::Source& source, const Outline& outline, const Definition& d,
                               unsigned max_lines = 12);

}  // namespace humus::lsp
