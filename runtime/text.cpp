#include "runtime/text.hpp"

#include <vector>

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

std::optional<Value> text_string(std::string_view s) {
  std::vector<uint32_t> cps;
  for (size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return std::nullopt;
    uint32_t cp = len == 1 ? b : b & (0x7F >> len);
    for (int k = 1; k < len; ++k) {
      auto c = static_cast<unsigned char>(s[i + k]);
      if ((c >> 6) != 2) return std::nullopt;
      cp = (cp << 6) | (c & 0x3F);
    }
    cps.push_back(cp);
    i += len;
  }
  Value out = Value::nil();
  for (size_t i = cps.size(); i-- > 0;) out = make_pair(Value::small(cps[i]), std::move(out));
  return out;
}

}  // namespace humus::rt
