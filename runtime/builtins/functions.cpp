// The built-in functions of LANGUAGE.md section 9, and the one table of all
// built-in functions. Each is a plain C++ function; two-argument ones are
// written once, as `fn2`, and get their one-argument (pair) form from
// `on_pair`. Wrong types give ?.
#include "runtime/builtins/functions.hpp"

#include <iterator>
#include <vector>

#include "runtime/equality.hpp"
#include "runtime/integer.hpp"
#include "runtime/packed.hpp"

namespace humus::rt {

namespace {

// ---- one argument
Value not_(const Value& v) { return v.is_boolean() ? Value::boolean(v.is_false()) : Value::undefined(); }
Value is_boolean(const Value& v) { return Value::boolean(v.is_boolean()); }
Value is_number(const Value& v) { return Value::boolean(v.is_integer()); }
Value is_symbol(const Value& v) { return Value::boolean(v.is_symbol()); }
Value is_function(const Value& v) { return Value::boolean(v.is_function()); }
Value is_actor(const Value& v) { return Value::boolean(v.is_actor()); }
Value is_pair(const Value& v) { return Value::boolean(v.is_cons()); }
Value neg(const Value& v) { return int_neg(v); }

// ---- two arguments
Value eq(const Value& a, const Value& b) { return Value::boolean(equal(a, b)); }
Value and_(const Value& a, const Value& b) {
  return a.is_boolean() && b.is_boolean() ? Value::boolean(a.is_true() && b.is_true()) : Value::undefined();
}
Value or_(const Value& a, const Value& b) {
  return a.is_boolean() && b.is_boolean() ? Value::boolean(a.is_true() || b.is_true()) : Value::undefined();
}
Value add(const Value& a, const Value& b) { return int_add(a, b); }
Value sub(const Value& a, const Value& b) { return int_sub(a, b); }
Value mul(const Value& a, const Value& b) { return int_mul(a, b); }
Value div(const Value& a, const Value& b) { return int_div(a, b); }
Value mod(const Value& a, const Value& b) { return int_mod(a, b); }

// compare: the total order of all values (equality.hpp).
Value compare(const Value& a, const Value& b) {
  if (a.is_integer() && b.is_integer()) return Value::small(int_compare(a, b));
  return Value::small(order(a, b));
}
// The comparisons: ? unless both are integers.
template <class Test>
Value compare_with(const Value& a, const Value& b, Test test) {
  if (!a.is_integer() || !b.is_integer()) return Value::undefined();
  return test(int_compare(a, b));
}
Value less(const Value& a, const Value& b) {
  return compare_with(a, b, [](int c) { return Value::boolean(c < 0); });
}
Value less_equal(const Value& a, const Value& b) {
  return compare_with(a, b, [](int c) { return Value::boolean(c <= 0); });
}
Value greater_equal(const Value& a, const Value& b) {
  return compare_with(a, b, [](int c) { return Value::boolean(c >= 0); });
}
Value greater(const Value& a, const Value& b) {
  return compare_with(a, b, [](int c) { return Value::boolean(c > 0); });
}

// Section 9's table, in its order.
constexpr BuiltinFunction kCore[] = {
    two<eq>("eq",
            "`eq(a, b)`: `TRUE` when a and b are equal (structurally; actors and functions by identity), else `FALSE`"),
    one("not", not_, "`not(b)`: the negation of `TRUE` or `FALSE`, else `?`"),
    two<and_>("and", "`and(a, b)`: `TRUE` when both are `TRUE`; `?` unless both are booleans"),
    two<or_>("or", "`or(a, b)`: `TRUE` when either is `TRUE`; `?` unless both are booleans"),
    one("is_boolean", is_boolean, "`is_boolean(v)`: `TRUE` when v is `TRUE` or `FALSE`"),
    one("is_number", is_number, "`is_number(v)`: `TRUE` when v is an integer"),
    one("is_symbol", is_symbol, "`is_symbol(v)`: `TRUE` when v is a symbol such as `#ok`"),
    one("is_function", is_function, "`is_function(v)`: `TRUE` when v is a function (a closure or a built-in)"),
    one("is_actor", is_actor, "`is_actor(v)`: `TRUE` when v is an actor"),
    one("is_pair", is_pair, "`is_pair(v)`: `TRUE` when v is a pair (a non-empty string is one)"),
    one("neg", neg, "`neg(n)`: minus n"),
    two<add>("add", "`add(a, b)`: a + b, for integers of any size"),
    two<sub>("sub", "`sub(a, b)`: a - b"),
    two<mul>("mul", "`mul(a, b)`: a * b"),
    two<div>("div", "`div(a, b)`: Euclidean quotient of a by b; `?` when b is 0"),
    two<mod>("mod", "`mod(a, b)`: Euclidean remainder of a by b, never negative; `?` when b is 0"),
    two<compare>("compare",
                 "`compare(a, b)`: -1, 0 or 1 as a comes before, equals or comes after b in the order of all values "
                 "(numbers, then symbols by name, then lists and strings element by element; docs/language.md)"),
    two<less>("less", "`less(a, b)`: `TRUE` when a < b (integers)"),
    two<less_equal>("less_equal", "`less_equal(a, b)`: `TRUE` when a <= b (integers)"),
    two<greater_equal>("greater_equal", "`greater_equal(a, b)`: `TRUE` when a >= b (integers)"),
    two<greater>("greater", "`greater(a, b)`: `TRUE` when a > b (integers)"),
};
static_assert(std::size(kCore) == kCoreBuiltins);

const std::vector<BuiltinFunction>& all_functions() {
  static const std::vector<BuiltinFunction> all = [] {
    std::vector<BuiltinFunction> v(std::begin(kCore), std::end(kCore));
    for (const BuiltinFunction& f : text_functions()) v.push_back(f);
    for (const BuiltinFunction& f : list_functions()) v.push_back(f);
    for (const BuiltinFunction& f : map_functions()) v.push_back(f);
    return v;
  }();
  return all;
}

}  // namespace

Value apply_to_pair(Native::Fn2 f, const Value& arg) {
  if (arg.is_pair()) return f(head(arg), tail(arg));
  if (arg.is_cons()) {  // a packed value (packed.hpp)
    Value pairs = expand(arg);
    return f(head(pairs), tail(pairs));
  }
  return Value::undefined();
}

std::span<const BuiltinFunction> builtin_table() { return all_functions(); }

std::span<Native* const> builtin_functions() {
  // Made once (thread-safe static init) and never freed: immortal. The
  // vector itself is never destroyed either, so the natives stay reachable
  // to the end (LeakSanitizer counted them as leaks when it was).
  static const std::vector<Native*>* natives = [] {
    auto* a = new std::vector<Native*>;
    for (const BuiltinFunction& f : all_functions()) {
      a->push_back(new Native(f.name, f.fn, f.fn2));
      a->back()->make_immortal();
    }
    return a;
  }();
  return *natives;
}

}  // namespace humus::rt
