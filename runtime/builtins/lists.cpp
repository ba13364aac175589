// The prelude's list functions that Erlang has as built-ins (its BIFs):
// length, member, reverse, append, nth, last, take, drop and sum, in C++.
// stdlib/prelude.hum binds each name to its native_ function here.
//
// Each gives exactly what the prelude's Humus definition gave, ? and the
// odd cases included (the definitions are kept in tests/scripts/
// list_builtins.hum, which compares both on random and malformed lists):
// a list that does not end in NIL, a count that is not an integer. They
// walk with a ListCursor, so a packed string is a list of code points
// (length("abc") is 3 without walking it) and nothing recurses.
#include <vector>

#include "runtime/builtins/functions.hpp"
#include "runtime/equality.hpp"
#include "runtime/integer.hpp"
#include "runtime/packed.hpp"

namespace humus::rt {

namespace {

// The list of vs, in order, ending in `tail`.
Value list_of(std::vector<Value>& vs, Value tail) {
  for (size_t i = vs.size(); i-- > 0;) tail = make_pair(std::move(vs[i]), std::move(tail));
  return tail;
}

// xs reversed onto acc (prelude_rev_onto): ? when xs does not end in NIL.
Value rev_onto(const Value& xs, Value acc) {
  ListCursor c(xs);
  for (; c.at_pair(); c.next()) acc = make_pair(c.head(), std::move(acc));
  return c.rest().is_nil() ? acc : Value::undefined();
}

// length(xs): ? for a list that does not end in NIL.
Value length(const Value& xs) {
  const Value* end = nullptr;
  const uint64_t n = list_length(xs, &end);
  return end->is_nil() ? make_integer(int64_t(n)) : Value::undefined();
}

Value reverse(const Value& xs) { return rev_onto(xs, Value::nil()); }

Value append(const Value& xs, const Value& ys) {
  std::vector<Value> items;
  ListCursor c(xs);
  for (; c.at_pair(); c.next()) items.push_back(c.head());
  if (!c.rest().is_nil()) return Value::undefined();
  return list_of(items, ys);
}

// member(x, xs): TRUE at the first element equal to x; FALSE at NIL; ? at
// any other end.
Value member(const Value& x, const Value& xs) {
  const Value* v = &xs;
  if (!x.is_object()) {
    // An immediate (a small integer, a symbol, NIL, a truth value) equals
    // only itself, and a big integer equal to it (never, normalised; asked
    // anyway, as equal() does): down a chain of pairs without a cursor.
    for (; v->is_pair(); v = &v->as<Pair>()->tail) {
      const Value& h = v->as<Pair>()->head;
      if (h.same(x) || (h.is_bigint() && equal(h, x))) return Value::truth();
    }
  }
  ListCursor c(*v);
  for (; c.at_pair(); c.next())
    if (equal(c.head(), x)) return Value::truth();
  return c.rest().is_nil() ? Value::falsity() : Value::undefined();
}

// last(xs): the element before NIL; ? for NIL or a list that does not end in NIL.
Value last(const Value& xs) {
  ListCursor c(xs);
  if (!c.at_pair()) return Value::undefined();
  Value prev;
  for (; c.at_pair(); c.next()) prev = c.head();
  return c.rest().is_nil() ? prev : Value::undefined();
}

// The prelude's tests `$less(0, n) = TRUE`: n an integer above 0.
bool positive(const Value& n) { return n.is_integer() && int_compare(n, Value::small(0)) > 0; }

// drop(n, xs): after n elements, or where the list stops being a pair.
// Not counting more than the list has, a big n costs no big-integer steps.
Value drop_from(const Value& n0, const Value& xs) {
  if (!positive(n0)) return xs;
  const std::optional<int64_t> small = integer_to_int64(n0);
  uint64_t n = small ? uint64_t(*small) : UINT64_MAX;
  // The walk counts nothing but its result (nth's `forks` of twenty
  // elements took forty locked instructions): every cell it passes is
  // kept by `xs`, which the caller holds, or by `owned`, a packed value's
  // pairs made here.
  Value owned;
  const Value* cur = &xs;
  while (n > 0) {
    if (cur->is_pair()) {
      cur = &cur->as<Pair>()->tail;
    } else if (cur->is_cons()) {  // a packed value: its pairs, a chunk at a time
      if (cur->is_str() && n < cur->as<Str>()->length) return str_rest(*cur, uint32_t(n));
      if (cur->is(ObjKind::Lines)) {  // whole runs of lines in one step
        const Lines* l = cur->as<Lines>();
        if (n < l->count) return lines_rest(*cur, uint32_t(n));
        n -= l->count;
        cur = &l->owner()->next;
        continue;
      }
      Value pairs = expand(*cur);  // made before `owned` lets go of what *cur may be part of
      owned = std::move(pairs);
      cur = &owned;
      continue;
    } else {
      break;
    }
    --n;
  }
  return *cur;
}
Value drop(const Value& n, const Value& xs) { return drop_from(n, xs); }

// take(n, xs): the first n elements, fewer where the list stops.
Value take(const Value& n0, const Value& xs) {
  std::vector<Value> items;
  if (positive(n0)) {
    const std::optional<int64_t> small = integer_to_int64(n0);
    const uint64_t n = small ? uint64_t(*small) : UINT64_MAX;
    for (ListCursor c(xs); c.at_pair() && items.size() < n; c.next()) items.push_back(c.head());
  }
  return list_of(items, Value::nil());
}

// nth(xs, i): CASE drop(i, xs) OF (x, _) : IF $less(i, 0) = TRUE ? ELSE x  _ : ? END.
Value nth(const Value& xs, const Value& i) {
  Value rest = drop_from(i, xs);
  if (!rest.is_cons()) return Value::undefined();
  if (i.is_integer() && int_compare(i, Value::small(0)) < 0) return Value::undefined();
  if (rest.is(ObjKind::Lines)) return lines_first(rest);  // not its pairs
  ListCursor c(rest);
  return c.head();
}

// sum(xs): fold(add, 0, xs): ? as soon as an element is not an integer
// (add gives ? and keeps giving it), and ? for a list that does not end in NIL.
Value sum(const Value& xs) {
  Value acc = Value::small(0);
  ListCursor c(xs);
  for (; c.at_pair(); c.next()) acc = int_add(acc, c.head());
  return c.rest().is_nil() ? acc : Value::undefined();
}

// Bound by stdlib/prelude.hum under the names without native_ (docs/stdlib/prelude.md).
constexpr BuiltinFunction kLists[] = {
    one("native_length", length, "`native_length(xs)`: see `length` (stdlib/prelude.hum)"),
    one("native_reverse", reverse, "`native_reverse(xs)`: see `reverse` (stdlib/prelude.hum)"),
    two<append>("native_append", "`native_append(xs, ys)`: see `append` (stdlib/prelude.hum)"),
    two<member>("native_member", "`native_member(x, xs)`: see `member` (stdlib/prelude.hum)"),
    one("native_last", last, "`native_last(xs)`: see `last` (stdlib/prelude.hum)"),
    two<nth>("native_nth", "`native_nth(xs, i)`: see `nth` (stdlib/prelude.hum)"),
    two<take>("native_take", "`native_take(n, xs)`: see `take` (stdlib/prelude.hum)"),
    two<drop>("native_drop", "`native_drop(n, xs)`: see `drop` (stdlib/prelude.hum)"),
    one("native_sum", sum, "`native_sum(xs)`: see `sum` (stdlib/prelude.hum)"),
};

}  // namespace

std::span<const BuiltinFunction> list_functions() { return kLists; }

}  // namespace humus::rt
