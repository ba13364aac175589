// Mathematical integers: small ones live in the Value word, the rest in GMP.
//
// Every operation takes the fast path when both operands are small and the
// result fits (a couple of instructions and an overflow check); otherwise it
// falls back to mpz arithmetic and normalises the result, so a big integer
// that shrinks back into range becomes small again. Operations on anything
// that is not an integer give ? (LANGUAGE.md section 9).
//
// The WebAssembly build (the playground) has GMP's mini-gmp instead: the same
// mpz API, built with 64-bit limbs (MINI_GMP_LIMB_TYPE), so this code is the
// same there; only `long` is 32 bits, so no mpz_*_si call takes an int64.
#pragma once

#ifdef HUMUS_MINI_GMP
#include <mini-gmp.h>
#else
#include <gmp.h>
#endif

#include <optional>

#include <string>
#include <string_view>

#include "runtime/value.hpp"

namespace humus::rt {

struct BigInt : Object {
  mpz_t z;
  BigInt() : Object(ObjKind::BigInt) { mpz_init(z); }
  ~BigInt() { mpz_clear(z); }
  BigInt(const BigInt&) = delete;
  BigInt& operator=(const BigInt&) = delete;
};

// Out-of-line halves of the operations below: any operand big, a result
// out of the small range, or a non-integer operand (integer.cpp).
namespace detail {
Value make_big(int64_t n);
Value int_neg_slow(const Value& a);
Value int_add_slow(const Value& a, const Value& b);
Value int_sub_slow(const Value& a, const Value& b);
Value int_mul_slow(const Value& a, const Value& b);
Value int_div_slow(const Value& a, const Value& b);
Value int_mod_slow(const Value& a, const Value& b);
int int_compare_slow(const Value& a, const Value& b);
}  // namespace detail

// A big integer made in place by `build(mpz_ptr)`, returned normalised (small
// when it fits). The BigInt is owned before GMP allocates, so an
// out-of-memory exception from `build` leaks nothing (a bare mpz_t would).
Value normalise_integer(Value big);
template <class Build>
Value integer_built_by(Build build) {
  Value r = Value::adopt(new BigInt());
  build(r.as<BigInt>()->z);
  return normalise_integer(std::move(r));
}
// The integer as an int64, if it is one that fits.
std::optional<int64_t> integer_to_int64(const Value& v);
// digits valid in radix (2..36), already checked by the parser
Value parse_integer(std::string_view digits, unsigned radix, bool negative);
std::string integer_to_string(const Value& v);          // decimal; precondition: is_integer()
void append_integer(std::string& out, const Value& v);  // same, appended to `out`

// Small when it fits.
inline Value make_integer(int64_t n) { return Value::fits_small(n) ? Value::small(n) : detail::make_big(n); }

// Arithmetic of section 9; ? for non-integers. The inline part is the
// small-operand fast path: two 62-bit values never overflow int64 when added
// or subtracted, so one range check decides; mul needs the overflow builtin.
inline Value int_neg(const Value& a) {
  if (a.is_small() && a.small_value() != Value::kSmallMin) return Value::small(-a.small_value());
  return detail::int_neg_slow(a);
}
inline Value int_add(const Value& a, const Value& b) {
  if (a.is_small() && b.is_small()) {
    int64_t r = a.small_value() + b.small_value();
    if (Value::fits_small(r)) return Value::small(r);
  }
  return detail::int_add_slow(a, b);
}
inline Value int_sub(const Value& a, const Value& b) {
  if (a.is_small() && b.is_small()) {
    int64_t r = a.small_value() - b.small_value();
    if (Value::fits_small(r)) return Value::small(r);
  }
  return detail::int_sub_slow(a, b);
}
inline Value int_mul(const Value& a, const Value& b) {
  if (a.is_small() && b.is_small()) {
    int64_t r;
    if (!__builtin_mul_overflow(a.small_value(), b.small_value(), &r) && Value::fits_small(r)) return Value::small(r);
  }
  return detail::int_mul_slow(a, b);
}
// Euclidean; ? when b = 0. Truncating division, then one correction step
// when the remainder is negative.
inline Value int_div(const Value& a, const Value& b) {
  if (a.is_small() && b.is_small() && b.small_value() != 0) {
    int64_t x = a.small_value(), y = b.small_value();
    int64_t q = x / y, r = x % y;  // no int64 overflow: |x| <= 2^62
    if (r < 0) q += y > 0 ? -1 : 1;
    if (Value::fits_small(q)) return Value::small(q);  // only kSmallMin / -1 does not
  }
  return detail::int_div_slow(a, b);
}
// Euclidean, never negative; ? when b = 0.
inline Value int_mod(const Value& a, const Value& b) {
  if (a.is_small() && b.is_small() && b.small_value() != 0) {
    int64_t x = a.small_value(), y = b.small_value();
    int64_t r = x % y;
    if (r < 0) r += y > 0 ? y : -y;
    return Value::small(r);
  }
  return detail::int_mod_slow(a, b);
}
// -1, 0, 1 for two integers; precondition: both is_integer()
inline int int_compare(const Value& a, const Value& b) {
  if (a.is_small() && b.is_small()) {
    int64_t x = a.small_value(), y = b.small_value();
    return (x > y) - (x < y);
  }
  return detail::int_compare_slow(a, b);
}

}  // namespace humus::rt
