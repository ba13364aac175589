// Shared helpers for the value-layer tests.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/code.hpp"
#include "runtime/integer.hpp"
#include "runtime/value.hpp"

namespace humus::rt::test {

inline Value I(int64_t n) { return make_integer(n); }

// An integer from decimal text (any size).
inline Value Z(const std::string& s) {
  bool neg = !s.empty() && s[0] == '-';
  return parse_integer(std::string_view(s).substr(neg ? 1 : 0), 10, neg);
}

// (v0, v1, ..., NIL)
template <class... Vs>
Value list(Vs... vs) {
  Value items[] = {Value(vs)...};
  Value r = Value::nil();
  for (size_t i = sizeof...(Vs); i-- > 0;) r = make_pair(items[i], std::move(r));
  return r;
}

// 0, 1, ..., n-1, NIL
inline Value range_list(int64_t n) {
  Value r = Value::nil();
  for (int64_t i = n; i-- > 0;) r = make_pair(Value::small(i), std::move(r));
  return r;
}

// Stand-ins for compiled code: the value layer only reads `loc`.
struct FakeFunction : FunctionCode {
  using FunctionCode::FunctionCode;
  Value apply(const Closure&, const Value&, Context&) const override { return Value::undefined(); }
  bool run_behavior(const Closure&, const Value&, Context&) const override { return false; }
};
struct FakeBlock : BlockCode {
  using BlockCode::BlockCode;
};

// Live-object accounting: counting is switched on before main() (see
// value_test.cpp), so every test may compare against a baseline.
struct LiveCheck {
  int64_t base = live_objects();
  int64_t delta() const { return live_objects() - base; }
};

}  // namespace humus::rt::test
