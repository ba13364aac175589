#include "runtime/str.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "runtime/packed.hpp"
#include "runtime/text.hpp"

namespace humus::rt {

namespace {

// A Str whose `n` code points (1 << shift bytes each) follow it, uninitialised.
Str* make_inline(uint32_t n, uint8_t shift) {
  void* mem = ::operator new(sizeof(Str) + (size_t(n) << shift));
  auto* s = new (mem) Str(n, shift);
  s->data = reinterpret_cast<const uint8_t*>(s + 1);
  return s;
}
uint8_t* inline_data(Str* s) { return reinterpret_cast<uint8_t*>(s + 1); }
static_assert(sizeof(Str) % 4 == 0, "the code points after a Str must be aligned");

// Decodes one UTF-8 sequence at s[i]; 0 bytes when it is not valid
// (overlong forms, surrogates and code points past U+10FFFF included).
int decode_utf8(std::string_view s, size_t i, uint32_t& cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) {
    cp = b;
    return 1;
  }
  const int len = (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  cp = b & (0x7F >> len);
  for (int k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c >> 6) != 2) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::optional<Utf8Shape> utf8_shape(std::string_view utf8) {
  Utf8Shape shape;
  uint64_t& n = shape.code_points;
  for (size_t i = 0; i < utf8.size();) {
    // Eight ASCII bytes at a time: most text is mostly ASCII.
    uint64_t word;
    if (i + 8 <= utf8.size() && (std::memcpy(&word, utf8.data() + i, 8), (word & 0x8080808080808080u) == 0)) {
      i += 8;
      n += 8;
      continue;
    }
    if (static_cast<unsigned char>(utf8[i]) < 0x80) {
      ++i;
      ++n;
      continue;
    }
    shape.ascii = false;
    uint32_t cp;
    const int len = decode_utf8(utf8, i, cp);
    if (len == 0) return std::nullopt;
    if (cp > 0xFF) shape.wide = true;
    i += size_t(len);
    ++n;
  }
  return shape;
}

bool is_ascii(std::string_view bytes) {
  const size_t words = bytes.size() / 8;
  uint64_t any = 0;
  for (size_t i = 0; i < words; ++i) {
    uint64_t w;
    std::memcpy(&w, bytes.data() + i * 8, 8);
    any |= w;
  }
  for (size_t i = words * 8; i < bytes.size(); ++i) any |= static_cast<unsigned char>(bytes[i]);
  return (any & 0x8080808080808080u) == 0;
}

std::optional<Value> str_from_utf8(std::string_view utf8) {
  // Two passes: count and check, then fill one allocation of the right width.
  std::optional<Utf8Shape> shape = utf8_shape(utf8);
  if (!shape || shape->code_points > kMaxStrLength) return std::nullopt;
  return str_from_shaped_utf8(utf8, *shape);
}

Value str_from_shaped_utf8(std::string_view utf8, const Utf8Shape& shape) {
  const uint64_t n = shape.code_points;
  if (n == 0) return Value::nil();
  const bool wide = shape.wide;
  Str* s = make_inline(uint32_t(n), wide ? 2 : 0);
  uint8_t* out = inline_data(s);
  if (shape.ascii) {
    std::memcpy(out, utf8.data(), utf8.size());
  } else {
    size_t k = 0;
    for (size_t i = 0; i < utf8.size();) {
      uint32_t cp;
      i += size_t(decode_utf8(utf8, i, cp));
      if (wide)
        reinterpret_cast<uint32_t*>(out)[k++] = cp;
      else
        out[k++] = uint8_t(cp);
    }
  }
  return Value::adopt(s);
}

Value str_from_code_points(const uint32_t* cps, size_t n) {
  if (n == 0) return Value::nil();
  if (n > kMaxStrLength) throw std::bad_alloc();
  const bool wide = std::any_of(cps, cps + n, [](uint32_t c) { return c > 0xFF; });
  Str* s = make_inline(uint32_t(n), wide ? 2 : 0);
  if (wide) {
    std::memcpy(inline_data(s), cps, n * 4);
  } else {
    uint8_t* out = inline_data(s);
    for (size_t i = 0; i < n; ++i) out[i] = uint8_t(cps[i]);
  }
  return Value::adopt(s);
}

Value str_rest(const Value& sv, uint32_t from) {
  const Str* s = sv.as<Str>();
  if (from >= s->length) return Value::nil();
  if (from == 0) return sv;
  return str_slice(sv, from, s->length - from);
}

Value str_slice(const Value& sv, uint32_t from, uint32_t n) {
  const Str* s = sv.as<Str>();
  if (n == 0) return Value::nil();
  if (from == 0 && n == s->length) return sv;
  auto* r = new (::operator new(sizeof(Str))) Str(n, s->shift);
  r->data = s->data + (size_t(from) << s->shift);
  // Slices share the owner's data, never a slice's: a walk down a long
  // string does not build a chain of slices.
  const Str* owner = s->owner();
  r->base = Value::share(const_cast<Str*>(owner));
  return Value::adopt(r);
}

Value str_expand(const Value& sv) {
  const Str* s = sv.as<Str>();
  const uint32_t n = std::min(s->length, kExpandChunk);
  Value acc = str_rest(sv, n);
  for (uint32_t i = n; i-- > 0;) acc = make_pair(Value::small(s->at(i)), std::move(acc));
  return acc;
}

int str_compare(const Str& a, const Str& b) {
  const uint32_t n = std::min(a.length, b.length);
  if (a.shift == 0 && b.shift == 0) {
    if (int c = std::memcmp(a.data, b.data, n)) return c < 0 ? -1 : 1;
  } else {
    for (uint32_t i = 0; i < n; ++i)
      if (a.at(i) != b.at(i)) return a.at(i) < b.at(i) ? -1 : 1;
  }
  return a.length == b.length ? 0 : a.length < b.length ? -1 : 1;
}

void StrBuilder::append_utf8(std::string_view utf8) {
  for (size_t i = 0; i < utf8.size();) {
    uint32_t cp;
    const int len = decode_utf8(utf8, i, cp);
    if (len == 0) {  // not expected of the runtime's own text; keep what can be read
      push(0xFFFD);
      ++i;
      continue;
    }
    push(cp);
    i += size_t(len);
  }
}

bool StrBuilder::append_string(const Value& s) {
  if (s.is_str()) {
    const Str* p = s.as<Str>();
    const size_t at = cps_.size();
    cps_.resize(at + p->length);
    for (uint32_t i = 0; i < p->length; ++i) cps_[at + i] = p->at(i);
    return true;
  }
  ListCursor c(s);  // a list of code points, or pairs that end in a packed string
  for (; c.at_pair(); c.next()) {
    uint32_t cp;
    if (!c.head_code_point(cp)) return false;
    push(cp);
  }
  return c.rest().is_nil();
}

Value StrBuilder::finish() {
  static_assert(sizeof(char32_t) == sizeof(uint32_t));
  Value v = str_from_code_points(reinterpret_cast<const uint32_t*>(cps_.data()), cps_.size());
  cps_.clear();
  return v;
}

}  // namespace humus::rt
