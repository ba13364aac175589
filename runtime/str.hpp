// Packed strings: one object holding a string's code points, that behaves
// exactly as the list of them (LANGUAGE.md section 1: "ab" is (97, 98, NIL)).
//
// Why: a string as pairs costs a 24-byte object per character, so a 10 MB
// file read as a list is 10 million objects; packed, it is 10 MB. Text
// built-ins, input and files make packed strings, and so do string
// literals; programs build lists by hand as before. The two are the same
// value: equality, ordering, printing and the codec read both alike.
//
// A Str is one of the packed values of packed.hpp, which says how the VM
// and C++ code read them as the pairs they stand for. A Str is never empty:
// the empty string is NIL.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/value.hpp"

namespace humus::rt {

struct Str : Object {
  uint32_t length;      // code points, >= 1
  uint8_t shift;        // bytes per code point: 1 << shift (0: all below 256; 2: UTF-32)
  const uint8_t* data;  // the first code point
  Value base;           // the Str whose data this one slices, or empty: the data follows this object

  uint32_t at(uint32_t i) const { return shift ? reinterpret_cast<const uint32_t*>(data)[i] : uint32_t(data[i]); }
  // The Str that owns the data (this one, or the one it slices).
  const Str* owner() const { return base.empty() ? this : base.as<Str>(); }

  explicit Str(uint32_t n, uint8_t s) : Object(ObjKind::Str), length(n), shift(s), data(nullptr) {}
};

// The most code points a Str may have (its length is 32-bit).
inline constexpr uint64_t kMaxStrLength = UINT32_MAX;

// ---- making strings (NIL for an empty one; std::bad_alloc when memory is short)

// From UTF-8 text; none when it is not valid UTF-8 (or longer than kMaxStrLength).
std::optional<Value> str_from_utf8(std::string_view utf8);
// What a check of UTF-8 text found: its code points, and whether any is
// past U+00FF (wide: 4 bytes each) or past U+007F (not ascii).
struct Utf8Shape {
  uint64_t code_points = 0;
  bool wide = false;
  bool ascii = true;
};
// None when the text is not valid UTF-8.
std::optional<Utf8Shape> utf8_shape(std::string_view utf8);
// Whether every byte is below 0x80 (then it is valid UTF-8, a byte a code
// point): one pass the compiler vectorizes, for text read in bulk.
bool is_ascii(std::string_view bytes);
// From UTF-8 text already checked (its shape, or the combined shape of
// pieces checked one by one; at most kMaxStrLength code points).
Value str_from_shaped_utf8(std::string_view utf8, const Utf8Shape& shape);
// From code points, each a Unicode scalar value (the caller checked).
Value str_from_code_points(const uint32_t* cps, size_t n);
// The code points of `s` from index `from` on (a slice sharing its data); NIL past the end.
Value str_rest(const Value& s, uint32_t from);
// The n code points of `s` from index `from` (a slice; the caller keeps
// from + n within it); NIL when n is 0.
Value str_slice(const Value& s, uint32_t from, uint32_t n);
// Pairs of the first code points of `s` (at most kExpandChunk), their last
// tail the rest: a value equal to `s` that the VM's pair code can take apart.
inline constexpr uint32_t kExpandChunk = 16;
Value str_expand(const Value& s);
// compare's order of two packed strings: code point by code point, a prefix first.
int str_compare(const Str& a, const Str& b);

// Collects code points and makes a Str of them (NIL when none): for
// built-ins that produce text piece by piece.
class StrBuilder {
 public:
  void push(uint32_t cp) { cps_.push_back(cp); }
  // UTF-8 text that is known to be valid (the runtime's own output).
  void append_utf8(std::string_view utf8);
  // Every code point of a string value (packed or a list); false if it is not a string.
  bool append_string(const Value& s);
  size_t size() const { return cps_.size(); }
  Value finish();

 private:
  std::u32string cps_;
};

}  // namespace humus::rt
