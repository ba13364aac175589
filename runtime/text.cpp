#include "runtime/text.hpp"

#include "runtime/symbols.hpp"

namespace humus::rt {

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

bool is_code_point(const Value& v) {
  if (!v.is_small()) return false;
  int64_t n = v.small_value();
  return n >= 0 && n <= 0x10FFFF && !(n >= 0xD800 && n <= 0xDFFF);
}

std::optional<std::string> string_text(const Value& v) {
  std::string out;
  const Value* p = &v;
  for (; p->is_pair(); p = &tail(*p)) {
    if (!is_code_point(head(*p))) return std::nullopt;
    append_utf8(out, uint32_t(head(*p).small_value()));
  }
  if (!p->is_nil()) return std::nullopt;
  return out;
}

std::optional<std::string> name_text(const Value& v) {
  if (v.is_symbol()) return symbol_name(v.symbol_id());
  if (v.is_nil()) return std::nullopt;  // the empty string names nothing
  return string_text(v);
}

}  // namespace humus::rt
