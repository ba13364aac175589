#include "runtime/map_trie.hpp"

#include <algorithm>
#include <bit>
#include <new>
#include <vector>

#include "runtime/equality.hpp"
#include "runtime/integer.hpp"
#include "runtime/packed.hpp"

namespace humus::rt {

namespace {

constexpr uint32_t kBits = 5;
constexpr uint32_t kMaxShift = 64;  // at this shift no hash bit is left: a collision node

uint32_t slot_of(uint64_t h, uint32_t shift) { return uint32_t(h >> shift) & 31; }
// The bits set in x. Not std::popcount: built for any x86-64, the compiler
// makes that a call into libgcc; these few instructions stay inline.
uint32_t bits_set(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}
uint32_t index_of(uint32_t map, uint32_t bit) { return bits_set(map & ((1u << bit) - 1)); }

bool unique(const Value& v) {
  const Object* o = v.object();
  return !o->immortal() && o->refs.load(std::memory_order_acquire) == 1;
}

MapTrie* node(const Value& v) { return v.as<MapTrie>(); }

// compare's order, the common keys without a call.
int key_order(const Value& a, const Value& b) {
  if (a.is_small() && b.is_small()) return (a.small_value() > b.small_value()) - (a.small_value() < b.small_value());
  if (a.is_str() && b.is_str()) return str_compare(*a.as<Str>(), *b.as<Str>());
  return order(a, b);
}

// A copy of t with room for `add_items` more items and `add_nodes` more
// sub-tries, leaving out item `skip_item` and sub-trie `skip_node` (-1: none)
// and opening a gap at `gap_item` / `gap_node` (-1: none).
MapTrie* reshaped(const MapTrie* t, int skip_item, int gap_item, int skip_node, int gap_node) {
  const uint32_t items = t->items - (skip_item >= 0) + (gap_item >= 0);
  const uint32_t nodes = t->nodes - (skip_node >= 0) + (gap_node >= 0);
  // Copies are made in place, each Value counted once (no empty slot made
  // first and then assigned); the gaps are made empty, for the caller to fill.
  MapTrie* c = MapTrie::allocate(items, nodes);
  c->datamap = t->datamap;
  c->nodemap = t->nodemap;
  c->collision = t->collision;
  for (uint32_t i = 0, j = 0; i < t->items; ++i) {
    if (int(i) == skip_item) continue;
    if (int(j) == gap_item) new (&c->item_array()[j++]) TrieItem{0, Value(), Value()};
    new (&c->item_array()[j++]) TrieItem(t->item_array()[i]);
  }
  if (gap_item >= 0 && uint32_t(gap_item) == items - 1) new (&c->item_array()[gap_item]) TrieItem{0, Value(), Value()};
  for (uint32_t i = 0, j = 0; i < t->nodes; ++i) {
    if (int(i) == skip_node) continue;
    if (int(j) == gap_node) new (&c->node_array()[j++]) Value();
    new (&c->node_array()[j++]) Value(t->node_array()[i]);
  }
  if (gap_node >= 0 && uint32_t(gap_node) == nodes - 1) new (&c->node_array()[gap_node]) Value();
  return c;
}

// A trie of two items whose hashes agree below `shift`.
Value pair_of(TrieItem a, TrieItem b, uint32_t shift) {
  if (shift >= kMaxShift) {  // the same 64 bits: a collision node, in key order
    if (key_order(a.key, b.key) > 0) std::swap(a, b);
    MapTrie* c = MapTrie::make(2, 0);
    c->collision = true;
    c->item_array()[0] = std::move(a);
    c->item_array()[1] = std::move(b);
    return Value::adopt(c);
  }
  const uint32_t ba = slot_of(a.hash, shift), bb = slot_of(b.hash, shift);
  if (ba == bb) {
    MapTrie* c = MapTrie::make(0, 1);
    c->nodemap = 1u << ba;
    c->node_array()[0] = pair_of(std::move(a), std::move(b), shift + kBits);
    return Value::adopt(c);
  }
  if (ba > bb) std::swap(a, b);
  MapTrie* c = MapTrie::make(2, 0);
  c->datamap = (1u << ba) | (1u << bb);
  c->item_array()[0] = std::move(a);
  c->item_array()[1] = std::move(b);
  return Value::adopt(c);
}

Value put_at(Value t, uint64_t h, const Value& key, const Value& value, uint32_t shift, bool& added) {
  MapTrie* n = node(t);
  if (n->collision) {
    uint32_t at = 0;
    for (; at < n->items; ++at) {
      const int c = key_order(key, n->item_array()[at].key);
      if (c == 0) {
        added = false;
        if (unique(t)) {
          n->item_array()[at].value = value;
          return t;
        }
        MapTrie* copy = reshaped(n, -1, -1, -1, -1);
        copy->item_array()[at].value = value;
        return Value::adopt(copy);
      }
      if (c < 0) break;
    }
    added = true;
    MapTrie* copy = reshaped(n, -1, int(at), -1, -1);
    copy->item_array()[at] = {h, key, value};
    return Value::adopt(copy);
  }
  const uint32_t bit = slot_of(h, shift), mask = 1u << bit;
  if (n->datamap & mask) {
    const uint32_t i = index_of(n->datamap, bit);
    TrieItem& item = n->item_array()[i];
    if (item.hash == h && equal(item.key, key)) {
      added = false;
      if (unique(t)) {  // a map only the caller holds: no copy
        item.value = value;
        return t;
      }
      MapTrie* copy = reshaped(n, -1, -1, -1, -1);
      copy->item_array()[i].value = value;
      return Value::adopt(copy);
    }
    // Another key in the slot: both go one level down.
    added = true;
    const uint32_t j = index_of(n->nodemap, bit);
    Value sub = pair_of(item, TrieItem{h, key, value}, shift + kBits);
    MapTrie* copy = reshaped(n, int(i), -1, -1, int(j));
    copy->datamap &= ~mask;
    copy->nodemap |= mask;
    copy->node_array()[j] = std::move(sub);
    return Value::adopt(copy);
  }
  if (n->nodemap & mask) {
    const uint32_t j = index_of(n->nodemap, bit);
    if (unique(t)) {
      Value child = std::move(n->node_array()[j]);
      n->node_array()[j] = put_at(std::move(child), h, key, value, shift + kBits, added);
      return t;
    }
    Value child = put_at(n->node_array()[j], h, key, value, shift + kBits, added);
    MapTrie* copy = reshaped(n, -1, -1, -1, -1);
    copy->node_array()[j] = std::move(child);
    return Value::adopt(copy);
  }
  added = true;
  const uint32_t i = index_of(n->datamap, bit);
  MapTrie* copy = reshaped(n, -1, int(i), -1, -1);
  copy->datamap |= mask;
  copy->item_array()[i] = {h, key, value};
  return Value::adopt(copy);
}

// A sub-trie that holds one item and nothing else goes into its parent as
// that item: the shape stays a function of the items.
bool lone_item(const Value& t) {
  const MapTrie* n = node(t);
  return n->items == 1 && n->nodes == 0;
}

Value remove_at(Value t, uint64_t h, const Value& key, uint32_t shift, bool& removed) {
  MapTrie* n = node(t);
  if (n->collision) {
    for (uint32_t at = 0; at < n->items; ++at)
      if (equal(n->item_array()[at].key, key)) {
        removed = true;
        if (n->items == 1) return Value();
        return Value::adopt(reshaped(n, int(at), -1, -1, -1));
      }
    return t;
  }
  const uint32_t bit = slot_of(h, shift), mask = 1u << bit;
  if (n->datamap & mask) {
    const uint32_t i = index_of(n->datamap, bit);
    const TrieItem& item = n->item_array()[i];
    if (item.hash != h || !equal(item.key, key)) return t;
    removed = true;
    if (n->items == 1 && n->nodes == 0) return Value();
    MapTrie* copy = reshaped(n, int(i), -1, -1, -1);
    copy->datamap &= ~mask;
    return Value::adopt(copy);
  }
  if (n->nodemap & mask) {
    const uint32_t j = index_of(n->nodemap, bit);
    Value child = remove_at(n->node_array()[j], h, key, shift + kBits, removed);
    if (!removed) return t;
    if (child.empty()) {
      if (n->items == 0 && n->nodes == 1) return Value();
      MapTrie* copy = reshaped(n, -1, -1, int(j), -1);
      copy->nodemap &= ~mask;
      return Value::adopt(copy);
    }
    if (lone_item(child)) {  // the child's one item comes up into this node
      const uint32_t i = index_of(n->datamap, bit);
      MapTrie* copy = reshaped(n, -1, int(i), int(j), -1);
      copy->nodemap &= ~mask;
      copy->datamap |= mask;
      copy->item_array()[i] = node(child)->item_array()[0];
      return Value::adopt(copy);
    }
    MapTrie* copy = reshaped(n, -1, -1, -1, -1);
    copy->node_array()[j] = std::move(child);
    return Value::adopt(copy);
  }
  return t;
}

}  // namespace

MapTrie* MapTrie::allocate(uint32_t items, uint32_t nodes) {
  void* mem = ::operator new(sizeof(MapTrie) + size_t(items) * sizeof(TrieItem) + size_t(nodes) * sizeof(Value));
  auto* t = new (mem) MapTrie();
  t->items = items;
  t->nodes = nodes;
  return t;
}

MapTrie* MapTrie::make(uint32_t items, uint32_t nodes) {
  MapTrie* t = allocate(items, nodes);
  for (uint32_t i = 0; i < items; ++i) new (&t->item_array()[i]) TrieItem{0, Value(), Value()};
  construct_empty(t->node_array(), nodes);
  return t;
}

void MapTrie::destroy(MapTrie* t) {
  for (uint32_t i = 0; i < t->items; ++i) t->item_array()[i].~TrieItem();
  for (uint32_t i = 0; i < t->nodes; ++i) t->node_array()[i].~Value();
  t->~MapTrie();
  ::operator delete(static_cast<void*>(t));
}

const Value* trie_find(const Value& trie, uint64_t h, const Value& key) {
  if (trie.empty()) return nullptr;
  const MapTrie* n = node(trie);
  for (uint32_t shift = 0;; shift += kBits) {
    if (n->collision) {
      for (uint32_t i = 0; i < n->items; ++i)
        if (equal(n->item_array()[i].key, key)) return &n->item_array()[i].value;
      return nullptr;
    }
    const uint32_t bit = slot_of(h, shift), mask = 1u << bit;
    if (n->datamap & mask) {
      const TrieItem& item = n->item_array()[index_of(n->datamap, bit)];
      if (item.hash != h) return nullptr;
      if (item.key.same(key) || key_order(item.key, key) == 0) return &item.value;
      return nullptr;
    }
    if (!(n->nodemap & mask)) return nullptr;
    n = node(n->node_array()[index_of(n->nodemap, bit)]);
  }
}

Value trie_put(Value trie, uint64_t h, const Value& key, const Value& value, bool& added) {
  if (trie.empty()) {
    added = true;
    MapTrie* t = MapTrie::make(1, 0);
    t->datamap = 1u << slot_of(h, 0);
    t->item_array()[0] = {h, key, value};
    return Value::adopt(t);
  }
  return put_at(std::move(trie), h, key, value, 0, added);
}

Value trie_remove(Value trie, uint64_t h, const Value& key, bool& removed) {
  removed = false;
  if (trie.empty()) return trie;
  return remove_at(std::move(trie), h, key, 0, removed);
}

Value map_items_of(const Value& trie) {
  std::vector<const TrieItem*> items;
  trie_for_each(trie, [&](const TrieItem& i) { items.push_back(&i); });
  std::sort(items.begin(), items.end(),
            [](const TrieItem* a, const TrieItem* b) { return key_order(a->key, b->key) < 0; });
  Value list = Value::nil();
  for (size_t i = items.size(); i-- > 0;) list = make_pair(make_pair(items[i]->key, items[i]->value), std::move(list));
  return list;
}

}  // namespace humus::rt
