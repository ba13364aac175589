// A document's text as the editor sees it: lines, and positions in them.
//
// The AST counts 1-based lines and byte columns; LSP counts 0-based lines
// and characters in UTF-16 code units, unless both sides agree on UTF-8 at
// initialize (then characters are bytes). Text converts between the two and
// applies the editor's edits, whose ranges come in the client's units.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/ast.hpp"

namespace humus::lsp {

enum class Encoding { Utf16, Utf8 };

struct Position {  // LSP: 0-based line, character in the negotiated units
  uint32_t line = 0;
  uint32_t character = 0;
  bool operator==(const Position&) const = default;
};

class Text {
 public:
  // `name`: the document's name in messages (its path, or its URI).
  explicit Text(std::string text = "", std::string name = "");

  const std::string& str() const { return source_->text; }
  // The text as the parser takes it, shared rather than copied: a big
  // document's text was kept twice, here and in its analysis.
  const ast::SourcePtr& source() const { return source_; }
  size_t line_count() const { return starts_.size(); }
  // The text of a 0-based line, without its line break.
  std::string_view line(uint32_t line) const;

  // Byte offset of an AST location (1-based line, 1-based byte column), clamped.
  size_t byte_offset(uint32_t line, uint32_t column) const;
  // Byte offset of an LSP position; a line or character past the end is
  // clamped to the end of the document or of the line, as LSP asks.
  size_t offset(Position p, Encoding e) const;
  // The LSP position of an AST location (1-based line, 1-based byte column).
  Position position(uint32_t line, uint32_t column, Encoding e) const;
  // The LSP position of a byte offset.
  Position position_of_offset(size_t offset, Encoding e) const;

  // Replaces the bytes [from, to) with `with`.
  void replace(size_t from, size_t to, std::string_view with);

 private:
  void index();
  ast::SourcePtr source_;
  std::vector<size_t> starts_;  // byte offset of each line
};

// The number of `e` units in UTF-8 `bytes` (a truncated sequence counts one).
uint32_t units(std::string_view bytes, Encoding e);

}  // namespace humus::lsp
