// Packed values: objects that hold what would otherwise be a chain of
// pairs, and behave exactly as those pairs.
//
//   Str  a string, as the list of its code points (str.hpp)
//   Map  a map of the `map` module, as the list of its items (key, value)
//        in key order (map_trie.hpp, runtime/builtins/map.cpp)
//   Lines  the lines of a file, as the list of their strings (lines.hpp)
//
// Why: a string of pairs costs a 24-byte object a character; a map kept as
// a list (or a tree of tuples) costs a lookup a pointer chase per pair. A
// program never sees the difference: equality, ordering, hashing,
// printing, the codec, the embedding API and is_pair read a packed value as
// its pairs.
//
// Only a few places take a value apart as a pair. The VM, when a pattern
// test meets a packed value, replaces it in the register by equal pairs
// (expand(): a Str's first code points, a map's list of items), so the code
// after the test sees ordinary pairs. C++ code walks lists with a
// ListCursor, which reads every kind. `Value::is_pair()` stays "is a Pair
// object" (so no code ever reads a packed value as a Pair); `is_cons()`
// asks for a pair of any kind.
#pragma once

#include <cstdint>
#include <mutex>

#include "runtime/lines.hpp"
#include "runtime/str.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

// A map: a hash trie of its items (map_trie.hpp) and, once a program reads
// it as a list (prints it, compares it, takes it apart), that list, kept.
// Never empty: the empty map is NIL.
struct Map : Object {
  uint64_t size;  // items, >= 1
  Value trie;     // the root MapTrie
  Map(uint64_t n, Value t) : Object(ObjKind::Map), size(n), trie(std::move(t)) {}
  // The items in key order, as a list: made on first use and kept (under a
  // lock: two threads may ask at once). The reference lasts as long as the map.
  const Value& items() const;
  // Made already (for the walks that must not allocate: the cycle collector's).
  Value items_made() const;
  // Forgets the list (a map changed in place, which only its one holder can do).
  void drop_items();
  ~Map();
  // The list once made, else empty: for the walks over the object graph
  // (children.hpp), which run while nothing else does.
  Value& items_slot() { return items_; }

 private:
  mutable Value items_;  // empty until made
};

// Equal pairs for a packed value (is_cons() but not is_pair()): at least
// its first pair, the rest possibly packed still.
Value expand(const Value& packed);
// The head and tail of a pair of any kind; false for anything else.
bool head_tail(const Value& v, Value& head, Value& tail);

// Walks a list element by element, whatever its cells are made of (pairs,
// packed strings, maps, any mix), allocating nothing but a map's list of
// items the first time it is read as a list (Map::items).
//   for (ListCursor c(v); c.at_pair(); c.next()) use(c.head());
//   c.rest() is then what ends the list: NIL for a proper list.
class ListCursor {
 public:
  explicit ListCursor(const Value& v) : v_(&v) { settle(); }
  bool at_pair() const { return kind_ != Kind::None; }
  // The element here (at_pair() must hold). The reference lasts while the
  // walked value lives, but for a packed string's code point: until next().
  const Value& head() const {
    return kind_ == Kind::Str ? cp_ : kind_ == Kind::Pair ? v_->as<Pair>()->head : lines_head();
  }
  // The code point here, when the element is one (a fast path for text).
  bool head_code_point(uint32_t& cp) const;
  void next() {
    // Inline for the common step, a pair to a pair; the rest out of line.
    if (kind_ == Kind::Pair) {
      v_ = &v_->as<Pair>()->tail;
      if (!v_->is_pair()) settle();
      return;
    }
    next_packed();
  }
  // Inside a packed string: on past its last code point at once.
  void skip_str();
  // Whether the cursor stands at the start of a value (not inside a packed
  // one): then rest() is that value, the list from here on.
  bool at_value() const { return i_ == 0; }
  // The value from here on (when at_value()): when !at_pair(), the end of the list.
  const Value& rest() const { return *v_; }
  // Inside a packed string: the Str and the index of the current code point.
  const Str* str() const { return kind_ == Kind::Str ? v_->as<Str>() : nullptr; }
  uint32_t index() const { return i_; }
  // At packed lines: them (their count in one step, skip_lines() past them).
  const Lines* lines() const { return kind_ == Kind::Lines ? v_->as<Lines>() : nullptr; }
  void skip_lines();

 private:
  // Packed lines are read as pairs (Lines::items) only once an element is asked for.
  enum class Kind : uint8_t { None, Pair, Str, Lines };
  const Value& lines_head() const;
  void next_packed();
  void settle();  // entering a value: what kind of cell it is
  const Value* v_;
  Kind kind_ = Kind::None;
  uint32_t i_ = 0;
  Value cp_;  // the current code point of a Str (an immediate: no count)
};

// Number of elements of a list (packed values count what they stand for),
// stopping at the first tail that is not a pair; `end`, if given, gets it.
uint64_t list_length(const Value& v, const Value** end = nullptr);

// The lists of items of maps and lines (Map::items, Lines::items) are made
// under one of these locks, chosen by the packed value's address.
std::mutex& items_lock(const void* packed);

}  // namespace humus::rt
