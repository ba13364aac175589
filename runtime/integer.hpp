// Mathematical integers: small ones live in the Value word, the rest in GMP.
//
// Every operation takes the fast path when both operands are small and the
// result fits (a couple of instructions and an overflow check); otherwise it
// falls back to mpz arithmetic and normalises the result, so a big integer
// that shrinks back into range becomes small again. Operations on anything
// that is not an integer give ? (LANGUAGE.md section 9).
#pragma once

#include <gmp.h>

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

Value make_integer(int64_t n);           // small when it fits
Value integer_from_mpz(const mpz_t z);   // normalised: small when it fits
// digits valid in radix (2..36), already checked by the parser
Value parse_integer(std::string_view digits, unsigned radix, bool negative);
std::string integer_to_string(const Value& v);  // decimal; precondition: is_integer()

// Arithmetic of section 9; ? for non-integers.
Value int_neg(const Value& a);
Value int_add(const Value& a, const Value& b);
Value int_sub(const Value& a, const Value& b);
Value int_mul(const Value& a, const Value& b);
Value int_div(const Value& a, const Value& b);  // Euclidean; ? when b = 0
Value int_mod(const Value& a, const Value& b);  // Euclidean, never negative; ? when b = 0
// -1, 0, 1 for two integers; precondition: both is_integer()
int int_compare(const Value& a, const Value& b);

}  // namespace humus::rt
