// The `map` module's native half (stdlib/map.hum binds map_put to
// native_map_put, and so on): a persistent ordered map over any values.
//
// A map is an ordinary Humus value: NIL when empty, else a node that is the
// tuple (size, key, value, left, right), packed (runtime/packed.hpp: one
// object where four pairs would cost a lookup four cache misses), keys in
// the order of `compare` (equality.hpp: order). The tree is a treap whose
// priorities are the keys' hashes, which makes its shape a function of its
// keys alone, whatever the order they were put in: two maps with the same
// items are the same value to eq and print alike. Expected depth is about
// 2 ln n; every operation copies one path (persistence), and none recurses
// on the C++ stack, so a degenerate tree (hash collisions chosen by an
// adversary) is slow, never a crash. Anything that is not a map gives ?.
#include <vector>

#include "runtime/builtins/functions.hpp"
#include "runtime/equality.hpp"
#include "runtime/integer.hpp"
#include "runtime/packed.hpp"

namespace humus::rt {

namespace {

// A node's fields, read in place, and its key's hash and prefix.
struct Node {
  const Value* size;
  const Value* key;
  const Value* value;
  const Value* left;
  const Value* right;
  uint64_t hash;
  uint64_t prefix;
};

// A string of bytes' first 7 code points, big-endian, with the low bit set
// (0 for any other key): two keys whose prefixes are both set and differ
// are ordered by them, with no look at the strings themselves (a cache
// miss a level saved). Equal prefixes say nothing: then compare keys.
uint64_t key_prefix(const Value& key) {
  if (!key.is_str()) return 0;
  const Str* s = key.as<Str>();
  if (s->shift != 0) return 0;
  uint64_t p = 0;
  for (uint32_t i = 0; i < 7; ++i) p = (p << 8) | (i < s->length ? s->data[i] : 0);
  return (p << 8) | 1;
}

// The fields of `v`, or false when it is not a node: a packed one (as this
// module makes them), or the same tuple of pairs (as the codec brings them).
bool read_node(const Value& v, Node& n) {
  if (v.is(ObjKind::MapNode)) [[likely]] {
    const auto* p = v.as<MapNode>();
    n = {&p->slots[0], &p->slots[1], &p->slots[2], &p->slots[3], &p->slots[4], p->hash, p->prefix};
    return true;
  }
  if (!v.is_pair() || !head(v).is_small()) return false;
  const Value* rest = &tail(v);
  if (!rest->is_pair()) return false;
  n.size = &head(v);
  n.key = &head(*rest);
  rest = &tail(*rest);
  if (!rest->is_pair()) return false;
  n.value = &head(*rest);
  rest = &tail(*rest);
  if (!rest->is_pair()) return false;
  n.left = &head(*rest);
  n.right = &tail(*rest);
  n.hash = hash_value(*n.key);
  n.prefix = key_prefix(*n.key);
  return true;
}

// compare's order of a key (with its prefix) and a node's key; small
// integers and strings of bytes (the common keys) without a call.
int key_order(const Value& a, uint64_t pa, const Node& n) {
  const Value& b = *n.key;
  if (a.is_small() && b.is_small()) return (a.small_value() > b.small_value()) - (a.small_value() < b.small_value());
  if ((pa & n.prefix & 1) && pa != n.prefix) return pa < n.prefix ? -1 : 1;
  if (a.is_str() && b.is_str()) return str_compare(*a.as<Str>(), *b.as<Str>());
  return order(a, b);
}

int64_t size_of(const Value& m) {
  if (m.is(ObjKind::MapNode)) return m.as<MapNode>()->size().small_value();
  Node n;
  return read_node(m, n) && n.size->is_small() ? n.size->small_value() : 0;
}

Value make_node(uint64_t hash, uint64_t prefix, const Value& key, const Value& value, Value left, Value right,
                int64_t size) {
  return Value::adopt(new MapNode(hash, prefix, Value::small(size), key, value, std::move(left), std::move(right)));
}
Value make_node(uint64_t hash, uint64_t prefix, const Value& key, const Value& value, Value left, Value right) {
  const int64_t size = 1 + size_of(left) + size_of(right);
  return make_node(hash, prefix, key, value, std::move(left), std::move(right), size);
}
Value copy_with(const Node& n, Value left, Value right) {
  return make_node(n.hash, n.prefix, *n.key, *n.value, std::move(left), std::move(right));
}
// A copy of n one of whose subtrees changed, holding `delta` keys more: its
// size without looking at the other subtree (a cache miss a level).
Value copy_with(const Node& n, Value left, Value right, int64_t delta) {
  const int64_t size = n.size->is_small() ? n.size->small_value() + delta : 1 + size_of(left) + size_of(right);
  return make_node(n.hash, n.prefix, *n.key, *n.value, std::move(left), std::move(right), size);
}

// Priority: the higher comes nearer the root; ties by key, so it is a strict order.
bool above(const Value& a, uint64_t ha, uint64_t pa, const Node& b) {
  return ha != b.hash ? ha > b.hash : key_order(a, pa, b) > 0;
}

// One step of a path: the node passed and the side taken (true: right).
struct Step {
  Node node;
  bool right;
};
// Each operation's path, kept by the thread: a put allocates its nodes only.
thread_local std::vector<Step> tl_path;
struct PathScope {
  std::vector<Step>& path = tl_path;
  PathScope() { path.clear(); }
  ~PathScope() {
    path.clear();
    if (path.capacity() > 4096) std::vector<Step>().swap(path);  // a degenerate tree's
  }
};

// Rebuilds the path above a new subtree, which holds `delta` keys more than
// the one it replaces, bottom up.
Value rebuild(const std::vector<Step>& path, Value sub, int64_t delta) {
  for (size_t i = path.size(); i-- > 0;) {
    const Node& n = path[i].node;
    sub = path[i].right ? copy_with(n, *n.left, std::move(sub), delta) : copy_with(n, std::move(sub), *n.right, delta);
  }
  return sub;
}

// Walks from the root to `key`: the path, and the node holding it if any.
// False when the map is malformed on the way.
bool find_path(const Value& m, const Value& key, std::vector<Step>& path, Node& found, bool& present) {
  present = false;
  const uint64_t pk = key_prefix(key);
  const Value* cur = &m;
  while (!cur->is_nil()) {
    Node n;
    if (!read_node(*cur, n)) return false;
    const int c = key_order(key, pk, n);
    if (c == 0) {
      found = n;
      present = true;
      return true;
    }
    path.push_back({n, c > 0});
    cur = c > 0 ? n.right : n.left;
  }
  return true;
}

// The keys of t below `key` and above it, as two trees (key is not in t).
bool split(const Value& t, const Value& key, uint64_t pk, Value& below, Value& above_key) {
  std::vector<Step> path;  // right: the node goes to `below` (its key is less)
  const Value* cur = &t;
  while (!cur->is_nil()) {
    Node n;
    if (!read_node(*cur, n)) return false;
    const bool less = key_order(key, pk, n) > 0;
    path.push_back({n, less});
    cur = less ? n.right : n.left;
  }
  Value lo = Value::nil(), hi = Value::nil();
  for (size_t i = path.size(); i-- > 0;) {
    const Node& n = path[i].node;
    if (path[i].right)
      lo = copy_with(n, *n.left, std::move(lo));
    else
      hi = copy_with(n, std::move(hi), *n.right);
  }
  below = std::move(lo);
  above_key = std::move(hi);
  return true;
}

// One tree of a and b, every key of a below every key of b.
bool merge(const Value& a0, const Value& b0, Value& out) {
  std::vector<Step> path;  // right: a's node, whose right side is the rest; else b's, its left
  const Value* a = &a0;
  const Value* b = &b0;
  while (!a->is_nil() && !b->is_nil()) {
    Node na, nb;
    if (!read_node(*a, na) || !read_node(*b, nb)) return false;
    if (above(*na.key, na.hash, na.prefix, nb)) {
      path.push_back({na, true});
      a = na.right;
    } else {
      path.push_back({nb, false});
      b = nb.left;
    }
  }
  Value sub = a->is_nil() ? *b : *a;
  for (size_t i = path.size(); i-- > 0;) {
    const Node& n = path[i].node;
    sub = path[i].right ? copy_with(n, *n.left, std::move(sub)) : copy_with(n, std::move(sub), *n.right);
  }
  out = std::move(sub);
  return true;
}

bool is_map_root(const Value& m) { return m.is_nil() || m.is_pair() || m.is(ObjKind::MapNode); }

// ---- the functions

Value map_get(const Value& m, const Value& key) {
  const uint64_t pk = key_prefix(key);
  const Value* cur = &m;
  while (!cur->is_nil()) {
    Node n;
    if (!read_node(*cur, n)) return Value::undefined();
    const int c = key_order(key, pk, n);
    if (c == 0) return *n.value;
    cur = c > 0 ? n.right : n.left;
  }
  return Value::undefined();
}

Value map_has(const Value& m, const Value& key) {
  PathScope scope;
  Node found;
  bool present;
  if (!find_path(m, key, scope.path, found, present)) return Value::undefined();
  return Value::boolean(present);
}

// map_put(m, (key, value)): the two-argument form takes m and the pair.
// One walk down the search path: the key's node, if it is there, has a
// higher priority than every node below it on the path, so meeting a node
// of lower priority first means the key is new, to go in at that place.
Value map_put(const Value& m, const Value& kv0) {
  const Value kv = kv0.is_cons() && !kv0.is_pair() ? expand(kv0) : kv0;  // map_put(m, "ab"): key 'a', value "b"
  if (!is_map_root(m) || !kv.is_pair()) return Value::undefined();
  const Value& key = head(kv);
  const Value& value = tail(kv);
  PathScope scope;
  std::vector<Step>& path = scope.path;
  const uint64_t h = hash_value(key), pk = key_prefix(key);
  const Value* cur = &m;
  while (!cur->is_nil()) {
    Node n;
    if (!read_node(*cur, n)) return Value::undefined();
    const int c = key_order(key, pk, n);
    if (c == 0)  // same shape, the new value (and the key as first put)
      return rebuild(path, make_node(n.hash, n.prefix, *n.key, value, *n.left, *n.right, n.size->small_value()), 0);
    if (above(key, h, pk, n)) break;
    path.push_back({n, c > 0});
    cur = c > 0 ? n.right : n.left;
  }
  Value lo, hi;
  if (!split(*cur, key, pk, lo, hi)) return Value::undefined();
  return rebuild(path, make_node(h, pk, key, value, std::move(lo), std::move(hi)), 1);
}

Value map_remove(const Value& m, const Value& key) {
  if (!is_map_root(m)) return Value::undefined();
  PathScope scope;
  Node found;
  bool present;
  if (!find_path(m, key, scope.path, found, present)) return Value::undefined();
  if (!present) return m;
  Value joined;
  if (!merge(*found.left, *found.right, joined)) return Value::undefined();
  return rebuild(scope.path, std::move(joined), -1);
}

Value map_size(const Value& m) {
  if (m.is_nil()) return Value::small(0);
  Node n;
  if (!read_node(m, n)) return Value::undefined();
  return *n.size;
}

// The nodes of m in key order, each handed to `f`; false when malformed.
template <class F>
bool in_order(const Value& m, F&& f) {
  std::vector<Node> stack;
  const Value* cur = &m;
  for (;;) {
    while (!cur->is_nil()) {
      Node n;
      if (!read_node(*cur, n)) return false;
      stack.push_back(n);
      cur = n.left;
    }
    if (stack.empty()) return true;
    Node n = stack.back();
    stack.pop_back();
    f(n);
    cur = n.right;
  }
}

// The keys (or (key, value) items) in order, as a list.
Value listed(const Value& m, bool items) {
  std::vector<Value> out;
  if (!in_order(m, [&](const Node& n) { out.push_back(items ? make_pair(*n.key, *n.value) : *n.key); }))
    return Value::undefined();
  Value list = Value::nil();
  for (size_t i = out.size(); i-- > 0;) list = make_pair(std::move(out[i]), std::move(list));
  return list;
}
Value map_keys(const Value& m) { return listed(m, false); }
Value map_items(const Value& m) { return listed(m, true); }

#define ONE(name, f, doc) \
  BuiltinFunction { name, f, nullptr, doc }
#define TWO(name, f, doc) \
  BuiltinFunction { name, on_pair<f>, f, doc }

// Bound under their own names by stdlib/map.hum (docs/stdlib/map.md), which
// says what each does; the native_ names are hidden from suggestions.
constexpr BuiltinFunction kMap[] = {
    TWO("native_map_get", map_get, "`native_map_get(m, k)`: see `map_get` (stdlib/map.hum)"),
    TWO("native_map_has", map_has, "`native_map_has(m, k)`: see `map_has` (stdlib/map.hum)"),
    TWO("native_map_put", map_put, "`native_map_put(m, k, v)`: see `map_put` (stdlib/map.hum)"),
    TWO("native_map_remove", map_remove, "`native_map_remove(m, k)`: see `map_remove` (stdlib/map.hum)"),
    ONE("native_map_size", map_size, "`native_map_size(m)`: see `map_size` (stdlib/map.hum)"),
    ONE("native_map_keys", map_keys, "`native_map_keys(m)`: see `map_keys` (stdlib/map.hum)"),
    ONE("native_map_items", map_items, "`native_map_items(m)`: see `map_items` (stdlib/map.hum)"),
};
#undef ONE
#undef TWO

}  // namespace

std::span<const BuiltinFunction> map_functions() { return kMap; }

}  // namespace humus::rt
