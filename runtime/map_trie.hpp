// The `map` module's tree: a persistent hash array mapped trie, in the
// compressed form of Steindorfer and Vinju's CHAMP ("Optimizing
// Hash-Array Mapped Tries for Fast and Lean Immutable JVM Collections",
// OOPSLA 2015).
//
// Each trie node has up to 32 slots, chosen by 5 bits of a key's hash
// (equality.hpp: hash_value) per level: a slot holds an item (its hash, key
// and value) or a sub-trie. Items come first in a node, sub-tries after,
// each in slot order, so a node is two bitmaps and one packed array. Where
// hashes agree in all 64 bits, a collision node keeps the items in key
// order. After a remove, a sub-trie left with one item and no sub-tries is
// folded into its parent, so a trie's shape is a function of its items.
//
// A put or remove copies the path to the item (three or four nodes for a
// hundred thousand items), sharing the rest with the old trie; a node that
// only the caller holds is changed in place instead (a map built up in a
// loop). A lookup reads those three or four nodes: where a balanced binary
// tree of that size is seventeen deep, each level a cache miss. Nothing
// here recurses deeper than the 13 levels of a 64-bit hash.
//
// Trie nodes are objects (ObjKind::MapTrie) so the cycle collector and
// freeing see what they hold, but no program ever sees one: a program sees
// the Map above them (packed.hpp), which reads as its list of items.
#pragma once

#include <cstdint>

#include "runtime/value.hpp"

namespace humus::rt {

struct TrieItem {
  uint64_t hash;
  Value key;
  Value value;
};

struct alignas(8) MapTrie : Object {
  uint32_t datamap = 0;  // slots holding an item here
  uint32_t nodemap = 0;  // slots holding a sub-trie
  uint32_t items = 0;    // how many items (a collision node: all of them, its bitmaps 0)
  uint32_t nodes = 0;    // how many sub-tries
  bool collision = false;
  TrieItem* item_array() { return reinterpret_cast<TrieItem*>(this + 1); }
  const TrieItem* item_array() const { return reinterpret_cast<const TrieItem*>(this + 1); }
  Value* node_array() { return reinterpret_cast<Value*>(item_array() + items); }
  const Value* node_array() const { return reinterpret_cast<const Value*>(item_array() + items); }

  // A node with room for `items` items and `nodes` sub-tries, all empty.
  static MapTrie* make(uint32_t items, uint32_t nodes);
  // The same with the slots not made yet: the caller constructs every one.
  static MapTrie* allocate(uint32_t items, uint32_t nodes);
  static void destroy(MapTrie* t);  // releases what it holds and frees it (value.cpp)

 private:
  MapTrie() : Object(ObjKind::MapTrie) {}
};
static_assert(sizeof(MapTrie) % alignof(TrieItem) == 0);

// The value of `key` (its hash `h`) in the trie, or null. `trie` may be empty (no items).
const Value* trie_find(const Value& trie, uint64_t h, const Value& key);
// The trie with key bound to value; `added` says whether the key is new.
// `trie` may be empty; it is changed in place when `in_place` and only the
// caller holds it (the result is then the same trie).
Value trie_put(Value trie, uint64_t h, const Value& key, const Value& value, bool& added);
// The trie without key; `removed` says whether it had it. Empty when none is left.
Value trie_remove(Value trie, uint64_t h, const Value& key, bool& removed);
// Every item, in no order.
template <class F>
void trie_for_each(const Value& trie, F&& f);

// The items of a trie in key order (compare's), as the list ((k, v), ...).
Value map_items_of(const Value& trie);

template <class F>
void trie_for_each(const Value& root, F&& f) {
  if (root.empty()) return;
  const Value* stack[16 * 32];  // depth 13 at most, 32 sub-tries a node
  int top = 0;
  stack[top++] = &root;
  while (top) {
    const MapTrie* t = stack[--top]->as<MapTrie>();
    for (uint32_t i = 0; i < t->items; ++i) f(t->item_array()[i]);
    for (uint32_t i = 0; i < t->nodes; ++i) stack[top++] = &t->node_array()[i];
  }
}

}  // namespace humus::rt
