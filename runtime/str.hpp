// Packed strings: one object holding a string's code points, that behaves
// exactly as the list of them (LANGUAGE.md section 1: "ab" is (97, 98, NIL)).
//
// Why: a string as pairs costs a 24-byte object per character, so a 10 MB
// file read as a list is 10 million objects; packed, it is 10 MB. Text
// built-ins, input and files make packed strings, and so do string
// literals; programs build lists by hand as before. The two are the same
// value: equality, ordering, printing and the codec read both alike.
//
// Only a few places take a value apart as a pair. The VM, when a pattern
// test meets a Str, replaces it in the register by the equal pairs of its
// first code points (at most kExpandChunk of them), whose last tail is the
// rest of the Str as a slice: the code after the test sees ordinary pairs
// and never knows. C++ code walks lists with a ListCursor, which reads both
// kinds without allocating. A Str is never empty: the empty string is NIL.
// `Value::is_pair()` stays "is a Pair object" (so no code ever reads a Str
// as a Pair); `is_str()` asks for a Str, `is_cons()` for either.
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
// From code points, each a Unicode scalar value (the caller checked).
Value str_from_code_points(const uint32_t* cps, size_t n);
// The code points of `s` from index `from` on (a slice sharing its data); NIL past the end.
Value str_rest(const Value& s, uint32_t from);
// Pairs of the first code points of `s` (at most kExpandChunk), their last
// tail the rest: a value equal to `s` that the VM's pair code can take apart.
inline constexpr uint32_t kExpandChunk = 16;
Value str_expand(const Value& s);

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

// ---- reading lists, packed strings included

// Walks a list element by element without allocating, whether its cells
// are pairs, packed strings, or pairs that end in a packed string.
//   for (ListCursor c(v); c.at_pair(); c.next()) use(c.head());
//   c.rest() is then what ends the list: NIL for a proper list.
class ListCursor {
 public:
  explicit ListCursor(const Value& v) : v_(&v) { settle(); }
  bool at_pair() const { return v_->is_pair() || str_; }
  // The element here (at_pair() must hold). The reference lasts until next().
  const Value& head() const { return str_ ? cp_ : v_->as<Pair>()->head; }
  // The code point here, when the element is one (a fast path for text).
  bool head_code_point(uint32_t& cp) const;
  void next();
  // The value from here on: when !at_pair(), the end of the list. Inside a
  // packed string it is the Str itself (only valid while i == 0).
  const Value& rest() const { return *v_; }
  // Inside a packed string: the Str and the index of the current code point.
  const Str* str() const { return str_; }
  uint32_t index() const { return i_; }

 private:
  void settle();  // entering a Str: read its first code point
  const Value* v_;
  const Str* str_ = nullptr;
  uint32_t i_ = 0;
  Value cp_;  // the current code point of a Str (an immediate: no count)
};

// Number of elements of a list (packed strings count their code points),
// stopping at the first tail that is not a pair; `end`, if given, gets that tail.
uint64_t list_length(const Value& v, const Value** end = nullptr);

}  // namespace humus::rt
