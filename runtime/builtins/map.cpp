// The `map` module's native half (stdlib/map.hum binds map_put to
// native_map_put, and so on): persistent maps over any values.
//
// A map is NIL when empty, else a Map (packed.hpp): a hash trie of its items
// (map_trie.hpp) that reads, to a program, as the list of its items
// ((k1, v1), (k2, v2), ..., NIL) in the order of `compare`. So a map prints
// as its items, and two maps with the same items are equal (eq), whatever
// order they were built in; and a list of (key, value) pairs, such as a map
// that came from another node over the wire, is taken as the map of its
// items (a later pair for the same key wins). Anything else gives ?.
#include <vector>

#include "runtime/builtins/functions.hpp"
#include "runtime/equality.hpp"
#include "runtime/map_trie.hpp"
#include "runtime/packed.hpp"

namespace humus::rt {

namespace {

// A map's trie and size, read from a Map, NIL or a list of items (made into a
// trie then). False for anything else.
bool read_map(const Value& m, Value& trie, uint64_t& size) {
  if (m.is(ObjKind::Map)) [[likely]] {
    const Map* p = m.as<Map>();
    trie = p->trie;
    size = p->size;
    return true;
  }
  trie = Value();
  size = 0;
  if (m.is_nil()) return true;
  ListCursor c(m);
  for (; c.at_pair(); c.next()) {
    Value k, v;
    if (!head_tail(c.head(), k, v)) return false;
    bool added;
    trie = trie_put(std::move(trie), hash_value(k), k, v, added);
    size += added;
  }
  return c.rest().is_nil();
}

Value make_map(Value trie, uint64_t size) {
  if (size == 0) return Value::nil();
  return Value::adopt(new Map(size, std::move(trie)));
}

// The Map itself when only the caller holds it (a map built up in a loop,
// passed on from call to call): it may then change in place.
Map* own(const Value& m) {
  if (!m.is(ObjKind::Map)) return nullptr;
  Map* p = m.as<Map>();
  return !p->immortal() && p->refs.load(std::memory_order_acquire) == 1 ? p : nullptr;
}

// ---- the functions

Value map_get(const Value& m, const Value& key) {
  if (m.is(ObjKind::Map)) [[likely]] {
    const Value* v = trie_find(m.as<Map>()->trie, hash_value(key), key);
    return v ? *v : Value::undefined();
  }
  Value trie;
  uint64_t size;
  if (!read_map(m, trie, size)) return Value::undefined();
  const Value* v = trie_find(trie, hash_value(key), key);
  return v ? *v : Value::undefined();
}

Value map_has(const Value& m, const Value& key) {
  Value trie;
  uint64_t size;
  if (!read_map(m, trie, size)) return Value::undefined();
  return Value::boolean(trie_find(trie, hash_value(key), key) != nullptr);
}

// map_put(m, (key, value)): the two-argument form takes m and the pair.
Value map_put(const Value& m, const Value& kv0) {
  Value key, value;
  if (!head_tail(kv0, key, value)) return Value::undefined();
  const uint64_t h = hash_value(key);
  bool added;
  if (Map* p = own(m)) {  // in place: no copy of the map or of the trie nodes only it holds
    p->drop_items();
    p->trie = trie_put(std::move(p->trie), h, key, value, added);
    p->size += added;
    return m;
  }
  Value trie;
  uint64_t size;
  if (!read_map(m, trie, size)) return Value::undefined();
  trie = trie_put(std::move(trie), h, key, value, added);
  return make_map(std::move(trie), size + added);
}

Value map_remove(const Value& m, const Value& key) {
  Value trie;
  uint64_t size;
  if (!read_map(m, trie, size)) return Value::undefined();
  bool removed;
  Value left = trie_remove(std::move(trie), hash_value(key), key, removed);
  if (!removed) return m;
  return make_map(std::move(left), size - 1);
}

Value map_size(const Value& m) {
  Value trie;
  uint64_t size;
  if (!read_map(m, trie, size)) return Value::undefined();
  return Value::small(int64_t(size));
}

Value map_items(const Value& m) {
  if (m.is(ObjKind::Map)) return m.as<Map>()->items();
  Value trie;
  uint64_t size;
  if (!read_map(m, trie, size)) return Value::undefined();
  return map_items_of(trie);
}

Value map_keys(const Value& m) {
  Value items = map_items(m);
  if (items.is_undefined()) return items;
  std::vector<Value> keys;
  for (ListCursor c(items); c.at_pair(); c.next()) keys.push_back(head(c.head()));
  Value list = Value::nil();
  for (size_t i = keys.size(); i-- > 0;) list = make_pair(std::move(keys[i]), std::move(list));
  return list;
}

// Bound under their own names by stdlib/map.hum (docs/stdlib/map.md), which
// says what each does; the native_ names are hidden from suggestions.
constexpr BuiltinFunction kMap[] = {
    two<map_get>("native_map_get", "`native_map_get(m, k)`: see `map_get` (stdlib/map.hum)"),
    two<map_has>("native_map_has", "`native_map_has(m, k)`: see `map_has` (stdlib/map.hum)"),
    two<map_put>("native_map_put", "`native_map_put(m, k, v)`: see `map_put` (stdlib/map.hum)"),
    two<map_remove>("native_map_remove", "`native_map_remove(m, k)`: see `map_remove` (stdlib/map.hum)"),
    one("native_map_size", map_size, "`native_map_size(m)`: see `map_size` (stdlib/map.hum)"),
    one("native_map_keys", map_keys, "`native_map_keys(m)`: see `map_keys` (stdlib/map.hum)"),
    one("native_map_items", map_items, "`native_map_items(m)`: see `map_items` (stdlib/map.hum)"),
};

}  // namespace

std::span<const BuiltinFunction> map_functions() { return kMap; }

}  // namespace humus::rt
