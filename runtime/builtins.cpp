// The built-in functions of LANGUAGE.md section 9. Each is a plain C++
// function; two-argument ones are written once, as `fn2`, and get their
// one-argument (pair) form from `on_pair`. Wrong types give ?.
#include "runtime/builtins.hpp"

#include <array>

#include "runtime/equality.hpp"
#include "runtime/integer.hpp"
#include "runtime/str.hpp"

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

// Comparisons: ? unless both are integers.
template <class Test>
Value compare_with(const Value& a, const Value& b, Test test) {
  if (!a.is_integer() || !b.is_integer()) return Value::undefined();
  return test(int_compare(a, b));
}
Value compare(const Value& a, const Value& b) {
  return compare_with(a, b, [](int c) { return Value::small(c); });
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

// The one-argument form of a two-argument built-in: f((a, b)) = f2(a, b).
template <Native::Fn2 F>
Value on_pair(const Value& arg) {
  if (arg.is_pair()) return F(head(arg), tail(arg));
  if (arg.is_str()) return F(Value::small(arg.as<Str>()->at(0)), str_rest(arg, 1));
  return Value::undefined();
}

struct Entry {
  const char* name;
  Native::Fn1 fn;
  Native::Fn2 fn2;
};
#define ONE(name, f) \
  Entry { name, f, nullptr }
#define TWO(name, f) \
  Entry { name, on_pair<f>, f }

// The whole table, in the order of section 9.
constexpr Entry kBuiltins[] = {
    TWO("eq", eq),
    ONE("not", not_),
    TWO("and", and_),
    TWO("or", or_),
    ONE("is_boolean", is_boolean),
    ONE("is_number", is_number),
    ONE("is_symbol", is_symbol),
    ONE("is_function", is_function),
    ONE("is_actor", is_actor),
    ONE("is_pair", is_pair),
    ONE("neg", neg),
    TWO("add", add),
    TWO("sub", sub),
    TWO("mul", mul),
    TWO("div", div),
    TWO("mod", mod),
    TWO("compare", compare),
    TWO("less", less),
    TWO("less_equal", less_equal),
    TWO("greater_equal", greater_equal),
    TWO("greater", greater),
};
#undef ONE
#undef TWO

constexpr size_t kCount = std::size(kBuiltins);

}  // namespace

std::span<Native* const> builtin_functions() {
  // Made once (thread-safe static init) and never freed: immortal.
  static const std::array<Native*, kCount> natives = [] {
    std::array<Native*, kCount> a{};
    for (size_t i = 0; i < kCount; ++i) {
      a[i] = new Native(kBuiltins[i].name, kBuiltins[i].fn, kBuiltins[i].fn2);
      a[i]->make_immortal();
    }
    return a;
  }();
  return natives;
}

}  // namespace humus::rt
