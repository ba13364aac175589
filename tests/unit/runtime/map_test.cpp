// The `map` module's native half (runtime/builtins/map.cpp, map_trie.hpp):
// random puts, gets and removes against std::map, maps that read as their
// lists of items, changes in place only where nobody else can see them,
// hash collisions, and ? for what is not a map.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "runtime/builtins/functions.hpp"
#include "runtime/equality.hpp"
#include "runtime/packed.hpp"
#include "runtime/print.hpp"
#include "runtime/symbols.hpp"
#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;
using humus::rt::test::I;
using humus::rt::test::list;

namespace {

// The n-th element of a list (0-based).
Value nth_item(const Value& xs, int n) {
  ListCursor c(xs);
  for (int i = 0; i < n && c.at_pair(); ++i) c.next();
  return c.head();
}

const Native* F(const std::string& name) {
  for (Native* n : builtin_functions())
    if (name == n->name) return n;
  FAIL("no built-in " << name);
  return nullptr;
}
Value put(const Value& m, const Value& k, const Value& v) { return F("native_map_put")->fn2(m, make_pair(k, v)); }
Value get(const Value& m, const Value& k) { return F("native_map_get")->fn2(m, k); }
Value has(const Value& m, const Value& k) { return F("native_map_has")->fn2(m, k); }
Value remove(const Value& m, const Value& k) { return F("native_map_remove")->fn2(m, k); }
Value size(const Value& m) { return F("native_map_size")->fn(m); }
Value keys(const Value& m) { return F("native_map_keys")->fn(m); }
Value items(const Value& m) { return F("native_map_items")->fn(m); }

}  // namespace

TEST_CASE("map: random puts, gets and removes agree with std::map") {
  std::mt19937_64 rng(7);
  std::map<int64_t, int64_t> model;
  Value m = Value::nil();
  for (int step = 0; step < 20000; ++step) {
    const int64_t k = int64_t(rng() % 3000) - 1500;
    const int what = int(rng() % 10);
    if (what < 6) {
      m = put(m, I(k), I(step));
      model[k] = step;
    } else if (what < 8) {
      m = remove(m, I(k));
      model.erase(k);
    } else {
      Value v = get(m, I(k));
      auto it = model.find(k);
      if (it == model.end())
        CHECK(v.is_undefined());
      else
        CHECK(v.small_value() == it->second);
      CHECK(has(m, I(k)).is_true() == (it != model.end()));
    }
    if (step % 1000 == 0) REQUIRE(size(m).small_value() == int64_t(model.size()));
  }
  // Keys in order, items (k, v) in key order.
  std::vector<Value> expect_keys, expect_items;
  for (auto [k, v] : model) {
    expect_keys.push_back(I(k));
    expect_items.push_back(make_pair(I(k), I(v)));
  }
  Value ks = Value::nil(), is = Value::nil();
  for (size_t i = expect_keys.size(); i-- > 0;) {
    ks = make_pair(expect_keys[i], ks);
    is = make_pair(expect_items[i], is);
  }
  CHECK(equal(keys(m), ks));
  CHECK(equal(items(m), is));
}

TEST_CASE("map: maps with the same items are equal, whatever order they were built in") {
  std::vector<int64_t> ks;
  for (int i = 0; i < 500; ++i) ks.push_back(i * 37 % 1009);
  Value a = Value::nil(), b = Value::nil();
  for (int64_t k : ks) a = put(a, I(k), I(k * 2));
  std::mt19937 rng(3);
  std::shuffle(ks.begin(), ks.end(), rng);
  for (int64_t k : ks) b = put(b, I(k), I(k * 2));
  CHECK(equal(a, b));
  CHECK(order(a, b) == 0);
  CHECK(hash_value(a) == hash_value(b));
  CHECK(to_string(a, kNoPrintLimit) == to_string(b, kNoPrintLimit));
  // Removing and putting back gives the same value again.
  Value c = put(remove(b, I(37)), I(37), I(74));
  CHECK(equal(a, c));
}

TEST_CASE("map: persistent: old maps are unchanged by puts and removes") {
  Value m1 = put(put(Value::nil(), I(1), I(10)), I(2), I(20));
  Value kept = m1;  // a second holder: a put must not change m1 in place
  Value m2 = put(m1, I(1), I(11));
  Value m3 = remove(m1, I(2));
  CHECK(get(m1, I(1)).small_value() == 10);
  CHECK(get(m2, I(1)).small_value() == 11);
  CHECK(get(m1, I(2)).small_value() == 20);
  CHECK(get(m3, I(2)).is_undefined());
  CHECK(size(m1).small_value() == 2);
  CHECK(size(m3).small_value() == 1);
  CHECK(remove(m1, I(99)).same(m1));  // nothing to remove: the same map
}

TEST_CASE("map: any values as keys, in the order of compare") {
  Value m = Value::nil();
  const Value sym_b = Value::symbol(intern_symbol("b")), sym_a = Value::symbol(intern_symbol("a"));
  Value hello = *str_from_utf8("hello");
  Value hello_list = list(I('h'), I('e'), I('l'), I('l'), I('o'));
  m = put(m, sym_b, I(1));
  m = put(m, I(5), I(2));
  m = put(m, hello, I(3));
  m = put(m, sym_a, I(4));
  m = put(m, Value::nil(), I(5));
  CHECK(to_string(keys(m)) == "5, #a, #b, NIL, (104, 101, 108, 108, 111, NIL), NIL");
  // A string built by hand finds the packed one: they are the same value.
  CHECK(get(m, hello_list).small_value() == 3);
  m = put(m, hello_list, I(30));
  CHECK(size(m).small_value() == 5);
  CHECK(get(m, hello).small_value() == 30);
}

TEST_CASE("map: a map reads as the list of its items, in key order") {
  Value m = put(put(put(Value::nil(), I(3), I(30)), I(1), I(10)), I(2), I(20));
  REQUIRE(m.is(ObjKind::Map));
  CHECK(m.is_cons());
  CHECK(m.kind() == Kind::Pair);
  Value as_list = list(make_pair(I(1), I(10)), make_pair(I(2), I(20)), make_pair(I(3), I(30)));
  CHECK(equal(m, as_list));
  CHECK(equal(as_list, m));
  CHECK(order(m, as_list) == 0);
  CHECK(hash_value(m) == hash_value(as_list));
  CHECK(to_string(m) == "(1, 10), (2, 20), (3, 30), NIL");
  CHECK(list_length(m) == 3);
  CHECK(equal(expand(m), as_list));
  CHECK(items(m).same(items(m)));  // made once, then kept
  // A list of items is taken as the map of them (as the codec brings maps).
  CHECK(get(as_list, I(2)).small_value() == 20);
  CHECK(size(put(as_list, I(8), I(80))).small_value() == 4);
  Value dup = list(make_pair(I(1), I(1)), make_pair(I(1), I(2)));  // a later pair wins
  CHECK(get(dup, I(1)).small_value() == 2);
  CHECK(size(dup).small_value() == 1);
}

TEST_CASE("map: a map only the caller holds changes in place; one held elsewhere never does") {
  Value m = Value::nil();
  for (int i = 0; i < 1000; ++i) m = put(std::move(m), I(i), I(i));
  const Object* before = m.object();
  m = put(std::move(m), I(5), I(555));  // the only holder: the same map, changed
  CHECK(m.object() == before);
  CHECK(get(m, I(5)).small_value() == 555);
  Value other = m;  // now two hold it
  Value m2 = put(m, I(5), I(5));
  CHECK(m2.object() != m.object());
  CHECK(get(m, I(5)).small_value() == 555);
  CHECK(get(other, I(5)).small_value() == 555);
  CHECK(get(m2, I(5)).small_value() == 5);
  // A list of items made before a change in place is not the new list.
  Value listed = items(m);
  other = Value();
  Value m3 = put(std::move(m), I(6), I(666));
  CHECK(get(m3, I(6)).small_value() == 666);
  CHECK(equal(nth_item(listed, 6), make_pair(I(6), I(6))));
  CHECK(equal(nth_item(items(m3), 6), make_pair(I(6), I(666))));
}

TEST_CASE("map: keys whose hashes collide in all 64 bits are kept apart") {
  // Keys that collide are rare by chance; two symbols with the same hash
  // cannot be made here, so collisions are made by putting so many keys
  // that the trie goes deep, and by equal hashes of different kinds
  // (none: hash_value separates kinds), then checked through the API.
  Value m = Value::nil();
  std::map<int64_t, int64_t> model;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    const int64_t k = int64_t(rng() >> 20);
    m = put(std::move(m), I(k), I(i));
    model[k] = i;
  }
  CHECK(size(m).small_value() == int64_t(model.size()));
  for (auto [k, v] : model) REQUIRE(get(m, I(k)).small_value() == v);
  for (auto [k, v] : model) m = remove(std::move(m), I(k));
  CHECK(m.is_nil());
}

TEST_CASE("map: what is not a map gives ?") {
  for (const Value& bad : {I(3), Value::symbol(intern_symbol("m")), *str_from_utf8("map"), Value::undefined(),
                           make_pair(Value::symbol(intern_symbol("x")), I(1))}) {
    CAPTURE(to_string(bad));
    CHECK(get(bad, I(1)).is_undefined());
    CHECK(put(bad, I(1), I(2)).is_undefined());
    CHECK(remove(bad, I(1)).is_undefined());
    CHECK(keys(bad).is_undefined());
    CHECK(items(bad).is_undefined());
  }
  CHECK(size(Value::nil()).small_value() == 0);
  CHECK(keys(Value::nil()).is_nil());
  CHECK(get(Value::nil(), I(1)).is_undefined());
  CHECK(F("native_map_put")->fn(I(1)).is_undefined());  // the one-argument form of a non-pair
}
