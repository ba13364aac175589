#include "runtime/text.hpp"

#include "runtime/packed.hpp"
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
  if (v.is_str()) {  // the common case, in one step
    const Str* s = v.as<Str>();
    if (s->shift == 0) {
      bool ascii = true;
      for (uint32_t i = 0; i < s->length && ascii; ++i) ascii = s->data[i] < 0x80;
      if (ascii) return std::string(reinterpret_cast<const char*>(s->data), s->length);
    }
    out.reserve(s->length);
    for (uint32_t i = 0; i < s->length; ++i) append_utf8(out, s->at(i));
    return out;
  }
  ListCursor c(v);
  for (; c.at_pair(); c.next()) {
    uint32_t cp;
    if (!c.head_code_point(cp)) return std::nullopt;
    append_utf8(out, cp);
  }
  if (!c.rest().is_nil()) return std::nullopt;
  return out;
}

std::optional<std::string> name_text(const Value& v) {
  if (v.is_symbol()) return symbol_name(v.symbol_id());
  if (v.is_nil()) return std::nullopt;  // the empty string names nothing
  return string_text(v);
}

std::optional<Value> text_string(std::string_view s) { return str_from_utf8(s); }

}  // namespace humus::rt
