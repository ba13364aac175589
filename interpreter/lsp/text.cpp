#include "interpreter/lsp/text.hpp"

#include <algorithm>

namespace humus::lsp {

namespace {

// Length of the UTF-8 sequence that starts with byte c (1 for a stray byte,
// so malformed text still maps every byte somewhere).
size_t sequence_length(unsigned char c) {
  if (c >= 0xF0 && c < 0xF8) return 4;
  if (c >= 0xE0) return c < 0xF0 ? 3 : 1;
  if (c >= 0xC0) return 2;
  return 1;
}

}  // namespace

uint32_t units(std::string_view bytes, Encoding e) {
  if (e == Encoding::Utf8) return uint32_t(bytes.size());
  uint32_t n = 0;
  for (size_t i = 0; i < bytes.size();) {
    size_t len = std::min(sequence_length(static_cast<unsigned char>(bytes[i])), bytes.size() - i);
    n += len == 4 ? 2 : 1;  // a code point beyond the BMP is a surrogate pair
    i += len;
  }
  return n;
}

Text::Text(std::string text, std::string name)
    : source_(std::make_shared<const ast::Source>(ast::Source{std::move(name), std::move(text)})) {
  index();
}

void Text::index() {
  starts_.assign(1, 0);
  for (size_t i = 0; i < str().size(); ++i)
    if (str()[i] == '\n') starts_.push_back(i + 1);
}

std::string_view Text::line(uint32_t line) const {
  if (line >= starts_.size()) return {};
  size_t begin = starts_[line];
  size_t end = line + 1 < starts_.size() ? starts_[line + 1] - 1 : str().size();
  if (end > begin && str()[end - 1] == '\r') --end;
  return std::string_view(str()).substr(begin, end - begin);
}

size_t Text::byte_offset(uint32_t line, uint32_t column) const {
  if (line == 0) return 0;
  if (line > starts_.size()) return str().size();
  return std::min(starts_[line - 1] + this->line(line - 1).size(), starts_[line - 1] + (column ? column - 1 : 0));
}

size_t Text::offset(Position p, Encoding e) const {
  if (p.line >= starts_.size()) return str().size();
  std::string_view l = line(p.line);
  size_t i = 0;
  uint32_t counted = 0;
  while (i < l.size()) {
    size_t len = std::min(sequence_length(static_cast<unsigned char>(l[i])), l.size() - i);
    uint32_t u = e == Encoding::Utf8 ? uint32_t(len) : (len == 4 ? 2 : 1);
    if (counted + u > p.character) break;  // there, or inside this character: its start
    counted += u;
    i += len;
  }
  return starts_[p.line] + i;
}

Position Text::position(uint32_t line, uint32_t column, Encoding e) const {
  if (line == 0) return {};
  uint32_t l = std::min<uint32_t>(line - 1, uint32_t(starts_.size() - 1));
  std::string_view text = this->line(l);
  size_t bytes = std::min<size_t>(column ? column - 1 : 0, text.size());
  // A column past the end of the line (an error at the end of the input)
  // stays past it by the same amount, so the editor shows it after the text.
  uint32_t beyond = column > 0 && column - 1 > text.size() ? uint32_t(column - 1 - text.size()) : 0;
  return {l, units(text.substr(0, bytes), e) + beyond};
}

Position Text::position_of_offset(size_t offset, Encoding e) const {
  offset = std::min(offset, str().size());
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  auto l = uint32_t(it - starts_.begin() - 1);
  std::string_view from_start = std::string_view(str()).substr(starts_[l], offset - starts_[l]);
  return {l, units(from_start, e)};
}

void Text::replace(size_t from, size_t to, std::string_view with) {
  const std::string& old = str();
  from = std::min(from, old.size());
  to = std::clamp(to, from, old.size());
  // A new text: the old one may still be an analysis's (until it is brought up to date) or the check's.
  std::string text;
  text.reserve(old.size() - (to - from) + with.size());
  text.append(old, 0, from).append(with).append(old, to);
  source_ = std::make_shared<const ast::Source>(ast::Source{source_->name, std::move(text)});
  index();
}

}  // namespace humus::lsp
