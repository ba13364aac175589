// Packed values: objects that hold what would otherwise be a chain of
// pairs, and behave exactly as those pairs.
//
//   Str      a string, as the list of its code points (str.hpp)
//   MapNode  a node of the `map` module's tree, as the tuple
//            (size, key, value, left, right) (runtime/builtins/map.cpp)
//
// Why: a string of pairs costs a 24-byte object a character, a map node
// four pairs that a lookup must chase one by one; packed, a string is about
// its text and a node one cache line. A program never sees the difference:
// equality, ordering, hashing, printing, the codec, the embedding API and
// is_pair read a packed value as its pairs.
//
// Only a few places take a value apart as a pair. The VM, when a pattern
// test meets a packed value, replaces it in the register by equal pairs
// (expand(): a Str's first code points, a node's spine), so the code after
// the test sees ordinary pairs. C++ code walks lists with a ListCursor,
// which reads all kinds without allocating. `Value::is_pair()` stays "is a
// Pair object" (so no code ever reads a packed value as a Pair);
// `is_cons()` asks for a pair of any kind.
#pragma once

#include <cstdint>

#include "runtime/str.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

struct MapNode : Object {
  uint64_t hash;    // the key's (equality.hpp: hash_value): its priority in the tree
  uint64_t prefix;  // the key's first code points, if it is a string of bytes (map.cpp: key_prefix)
  // size (a small integer: the nodes of this subtree), key, value, left
  // and right (each NIL or a node): the tuple in its order.
  Value slots[5];
  static constexpr uint32_t kHeads = 4;  // size, key, value, left; right is the tail
  MapNode(uint64_t key_hash, uint64_t key_prefix, Value size, Value key, Value value, Value left, Value right)
      : Object(ObjKind::MapNode),
        hash(key_hash),
        prefix(key_prefix),
        slots{std::move(size), std::move(key), std::move(value), std::move(left), std::move(right)} {}
  // A put copies a path of nodes and frees the old one: each thread keeps
  // freed nodes for its next ones, as Pair does (value.hpp, PairCache).
  static void* operator new(size_t n);
  static void operator delete(void* p);
  const Value& size() const { return slots[0]; }
  const Value& key() const { return slots[1]; }
  const Value& value() const { return slots[2]; }
  const Value& left() const { return slots[3]; }
  const Value& right() const { return slots[4]; }
};
static_assert(sizeof(MapNode) == 64, "a map node is one cache line");

// Equal pairs for a packed value (is_cons() but not is_pair()): at least
// its first pair, the rest possibly packed still.
Value expand(const Value& packed);
// The head and tail of a pair of any kind; false for anything else.
bool head_tail(const Value& v, Value& head, Value& tail);

// Walks a list element by element without allocating, whatever its cells
// are made of (pairs, packed strings, map nodes, any mix).
//   for (ListCursor c(v); c.at_pair(); c.next()) use(c.head());
//   c.rest() is then what ends the list: NIL for a proper list.
class ListCursor {
 public:
  explicit ListCursor(const Value& v) : v_(&v) { settle(); }
  bool at_pair() const { return kind_ != Kind::None; }
  // The element here (at_pair() must hold). The reference lasts while the
  // walked value lives, but for a packed string's code point: until next().
  const Value& head() const {
    switch (kind_) {
      case Kind::Str:
        return cp_;
      case Kind::Node:
        return v_->as<MapNode>()->slots[i_];
      default:
        return v_->as<Pair>()->head;
    }
  }
  // The code point here, when the element is one (a fast path for text).
  bool head_code_point(uint32_t& cp) const;
  void next();
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

 private:
  enum class Kind : uint8_t { None, Pair, Str, Node };
  void settle();  // entering a value: what kind of cell it is
  const Value* v_;
  Kind kind_ = Kind::None;
  uint32_t i_ = 0;
  Value cp_;  // the current code point of a Str (an immediate: no count)
};

// Number of elements of a list (packed values count what they stand for),
// stopping at the first tail that is not a pair; `end`, if given, gets it.
uint64_t list_length(const Value& v, const Value** end = nullptr);

}  // namespace humus::rt
