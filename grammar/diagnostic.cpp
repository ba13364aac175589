#include "grammar/diagnostic.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace humus::parse {

namespace {

// The most bytes of a source line a diagnostic shows.
constexpr std::size_t kMaxLineShown = 240;

// The text of 1-based line `line`, without its line break ("" past the end).
std::string_view line_text(std::string_view text, uint32_t line) {
  std::size_t start = 0;
  for (uint32_t l = 1; l < line; ++l) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  std::size_t end = text.find('\n', start);
  std::string_view s = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
  return s;
}

}  // namespace

uint32_t char_column(std::string_view text, ast::Loc loc) {
  std::string_view line = line_text(text, loc.line);
  uint32_t column = 1;
  for (std::size_t i = 0; i + 1 < loc.column && i < line.size(); ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++column;                // not a UTF-8 continuation byte
  if (loc.column > line.size() + 1) column += loc.column - uint32_t(line.size()) - 1;  // past the end
  return column;
}

std::string position_text(std::string_view text, ast::Loc loc) {
  return fmt::format("{}:{}", loc.line, char_column(text, loc));
}

std::string source_window(std::string_view text, ast::Loc loc) {
  std::string out;
  std::string_view line = line_text(text, loc.line);
  std::size_t before = loc.column > 0 ? loc.column - 1 : 0;
  // A long line (generated code, a 100 MB literal) is shown as a window
  // around the column, cut at character boundaries, with "..." where cut.
  std::string_view lead;
  if (line.size() > kMaxLineShown) {
    std::size_t from = before > kMaxLineShown / 2 ? before - kMaxLineShown / 2 : 0;
    while (from > 0 && (static_cast<unsigned char>(line[from]) & 0xC0) == 0x80) --from;
    std::size_t to = std::min(line.size(), from + kMaxLineShown);
    while (to < line.size() && (static_cast<unsigned char>(line[to]) & 0xC0) == 0x80) ++to;
    const bool cut_end = to < line.size();
    line = line.substr(from, to - from);
    before -= std::min(before, from);
    if (from > 0) lead = "...";
    out += lead;
    out += line;
    if (cut_end) out += "...";
  } else {
    out += line;
  }
  out += '\n';
  out.append(lead.size(), ' ');
  for (std::size_t i = 0; i < before; ++i) {
    if (i >= line.size()) {
      out += ' ';
    } else if (line[i] == '\t') {
      out += '\t';
    } else if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) {
      out += ' ';  // one column per code point: skip UTF-8 continuation bytes
    }
  }
  out += "^\n";
  return out;
}

std::string format_diagnostic(const ast::Source& src, ast::Loc loc, std::string_view kind, std::string_view message) {
  if (loc.line == 0) return fmt::format("{}: {}: {}\n", src.name, kind, message);
  return fmt::format("{}:{}:{}: {}: {}\n", src.name, loc.line, char_column(src.text, loc), kind, message) +
         source_window(src.text, loc);
}

}  // namespace humus::parse
