// Integers: small fast paths, GMP beyond, normalisation, Euclidean div/mod.
#include <doctest/doctest.h>

#include <string>

#include "tests/unit/runtime/value_helpers.hpp"

using namespace humus::rt;
using namespace humus::rt::test;

namespace {
std::string S(const Value& v) { return v.is_integer() ? integer_to_string(v) : std::string("<not an integer>"); }
const std::string kMax = std::to_string(Value::kSmallMax);  // 4611686018427387903
const std::string kMin = std::to_string(Value::kSmallMin);  // -4611686018427387904
const std::string kMaxP1 = "4611686018427387904";
const std::string kMinM1 = "-4611686018427387905";
}  // namespace

TEST_CASE("make_integer normalises") {
  CHECK(make_integer(0).is_small());
  CHECK(make_integer(Value::kSmallMax).is_small());
  CHECK(make_integer(Value::kSmallMin).is_small());
  CHECK(make_integer(Value::kSmallMax + 1).is_bigint());
  CHECK(make_integer(Value::kSmallMin - 1).is_bigint());
  CHECK(make_integer(INT64_MAX).is_bigint());
  CHECK(make_integer(INT64_MIN).is_bigint());
  CHECK(S(make_integer(INT64_MAX)) == "9223372036854775807");
  CHECK(S(make_integer(INT64_MIN)) == "-9223372036854775808");
  CHECK(S(make_integer(Value::kSmallMax + 1)) == kMaxP1);
  CHECK(S(make_integer(Value::kSmallMin - 1)) == kMinM1);
}

TEST_CASE("parse and print") {
  CHECK(S(parse_integer("0", 10, false)) == "0");
  CHECK(S(parse_integer("0", 10, true)) == "0");
  CHECK(S(parse_integer("42", 10, false)) == "42");
  CHECK(S(parse_integer("7", 10, true)) == "-7");
  CHECK(S(parse_integer("FF", 16, false)) == "255");
  CHECK(S(parse_integer("ff", 16, false)) == "255");
  CHECK(S(parse_integer("1010", 2, false)) == "10");
  CHECK(S(parse_integer("z", 36, false)) == "35");
  CHECK(S(parse_integer("Z", 36, true)) == "-35");
  CHECK(parse_integer(kMax, 10, false).is_small());
  CHECK(parse_integer(kMaxP1, 10, false).is_bigint());
  CHECK(parse_integer(kMaxP1, 10, true).is_small());  // -2^62 is kSmallMin
  CHECK(S(parse_integer(kMaxP1, 10, true)) == kMin);
  CHECK(parse_integer("4611686018427387905", 10, true).is_bigint());
  CHECK(S(parse_integer("9223372036854775808", 10, false)) == "9223372036854775808");
  CHECK(S(parse_integer("9223372036854775808", 10, true)) == "-9223372036854775808");
  std::string ones(200, '1');
  CHECK(S(parse_integer(ones, 10, false)) == ones);
  CHECK(S(parse_integer(ones, 10, true)) == "-" + ones);
  CHECK(S(parse_integer(std::string(64, '1'), 2, false)) == "18446744073709551615");
  CHECK(S(parse_integer("00000000000000000000000000000000000000000000000000000000000000000000042", 10, false)) == "42");
  CHECK(parse_integer("00000000000000000000000000000000000000000000000000000000000000000000042", 10, false).is_small());
  CHECK(S(Value::small(-1)) == "-1");
}

TEST_CASE("small arithmetic") {
  CHECK(S(int_add(I(2), I(3))) == "5");
  CHECK(S(int_sub(I(2), I(3))) == "-1");
  CHECK(S(int_mul(I(-4), I(3))) == "-12");
  CHECK(S(int_neg(I(5))) == "-5");
  CHECK(S(int_neg(I(0))) == "0");
  CHECK(S(int_mul(I(0), I(-7))) == "0");
}

TEST_CASE("overflow boundaries promote and demote") {
  Value max = I(Value::kSmallMax), min = I(Value::kSmallMin);
  Value maxp1 = int_add(max, I(1));
  CHECK(maxp1.is_bigint());
  CHECK(S(maxp1) == kMaxP1);
  Value back = int_sub(maxp1, I(1));
  CHECK(back.is_small());
  CHECK(back.small_value() == Value::kSmallMax);

  Value minm1 = int_sub(min, I(1));
  CHECK(minm1.is_bigint());
  CHECK(S(minm1) == kMinM1);
  CHECK(int_add(minm1, I(1)).is_small());
  CHECK(int_add(minm1, I(1)).small_value() == Value::kSmallMin);

  CHECK(int_add(max, min).small_value() == -1);
  CHECK(S(int_add(max, max)) == "9223372036854775806");
  CHECK(S(int_add(min, min)) == "-9223372036854775808");
  CHECK(S(int_sub(min, max)) == "-9223372036854775807");
  CHECK(S(int_sub(max, min)) == "9223372036854775807");

  CHECK(int_neg(max).small_value() == -Value::kSmallMax);
  CHECK(int_neg(min).is_bigint());
  CHECK(S(int_neg(min)) == kMaxP1);
  CHECK(int_neg(int_neg(min)).is_small());
  CHECK(int_neg(maxp1).is_small());
  CHECK(int_neg(maxp1).small_value() == Value::kSmallMin);

  CHECK(S(int_mul(max, I(2))) == "9223372036854775806");
  CHECK(S(int_mul(min, I(-1))) == kMaxP1);
  CHECK(S(int_mul(min, min)) == "21267647932558653966460912964485513216");
  CHECK(S(int_mul(max, max)) == "21267647932558653957237540927630737409");
  CHECK(int_mul(I(int64_t(1) << 31), I(int64_t(1) << 30)).is_small());
  CHECK(int_mul(I(int64_t(1) << 31), I(int64_t(1) << 31)).is_bigint());
  CHECK(S(int_mul(I(int64_t(1) << 31), I(int64_t(1) << 31))) == kMaxP1);
  CHECK(int_mul(I(-(int64_t(1) << 31)), I(int64_t(1) << 31)).is_small());
  CHECK(int_mul(maxp1, I(0)).is_small());

  // big results shrinking back
  Value big = Z("100000000000000000000000000000");
  CHECK(int_sub(big, big).is_small());
  CHECK(int_sub(big, big).small_value() == 0);
  CHECK(int_div(big, big).small_value() == 1);
  CHECK(int_mod(big, I(7)).is_small());
}

TEST_CASE("fact(40)") {
  Value f = I(1);
  for (int i = 2; i <= 40; ++i) f = int_mul(f, I(i));
  CHECK(S(f) == "815915283247897734345611269596115894272000000000");
  Value g = f;
  for (int i = 40; i >= 2; --i) g = int_div(g, I(i));
  CHECK(g.is_small());
  CHECK(g.small_value() == 1);
  CHECK(S(int_mul(f, f)) ==
        "665717749437497189208769764374695648426401518406663862032185661739706282409984000000000000000000");
  CHECK(S(int_neg(f)) == "-815915283247897734345611269596115894272000000000");
  CHECK(S(int_add(f, int_neg(f))) == "0");
}

TEST_CASE("Euclidean div and mod") {
  struct Row {
    int64_t a, b, q, r;
  };
  const Row rows[] = {
      {7, 2, 3, 1},   {-7, 2, -4, 1}, {7, -2, -3, 1}, {-7, -2, 4, 1}, {6, 2, 3, 0}, {-6, 2, -3, 0},
      {6, -2, -3, 0}, {-6, -2, 3, 0}, {0, 5, 0, 0},   {0, -5, 0, 0},  {1, 5, 0, 1}, {-1, 5, -1, 4},
      {1, -5, 0, 1},  {-1, -5, 1, 4}, {5, 1, 5, 0},   {5, -1, -5, 0}, {4, 5, 0, 4}, {-4, -5, 1, 1},
  };
  for (const Row& row : rows) {
    CAPTURE(row.a);
    CAPTURE(row.b);
    CHECK(S(int_div(I(row.a), I(row.b))) == std::to_string(row.q));
    CHECK(S(int_mod(I(row.a), I(row.b))) == std::to_string(row.r));
  }
  CHECK(int_div(I(5), I(0)).is_undefined());
  CHECK(int_mod(I(5), I(0)).is_undefined());
  CHECK(int_div(I(0), I(0)).is_undefined());
  CHECK(int_div(Z("100000000000000000000000"), I(0)).is_undefined());
  CHECK(int_mod(Z("-100000000000000000000000"), I(0)).is_undefined());

  // kSmallMin / -1 leaves the small range
  CHECK(S(int_div(I(Value::kSmallMin), I(-1))) == kMaxP1);
  CHECK(int_mod(I(Value::kSmallMin), I(-1)).small_value() == 0);
  CHECK(S(int_div(I(Value::kSmallMin), I(Value::kSmallMax))) == "-2");
  CHECK(S(int_mod(I(Value::kSmallMin), I(Value::kSmallMax))) == std::to_string(Value::kSmallMax - 1));

  // The law a = b*div(a,b) + mod(a,b), 0 <= mod < |b|, over small, big and mixed operands.
  const char* samples[] = {"0",
                           "1",
                           "-1",
                           "7",
                           "-7",
                           "2",
                           "-2",
                           "4611686018427387903",
                           "-4611686018427387904",
                           "4611686018427387904",
                           "-4611686018427387905",
                           "9223372036854775807",
                           "-9223372036854775808",
                           "123456789012345678901234567890",
                           "-123456789012345678901234567890",
                           "815915283247897734345611269596115894272000000000",
                           "-98765432109876543210"};
  for (const char* as : samples) {
    for (const char* bs : samples) {
      Value a = Z(as), b = Z(bs);
      CAPTURE(as);
      CAPTURE(bs);
      Value q = int_div(a, b), r = int_mod(a, b);
      if (std::string(bs) == "0") {
        CHECK(q.is_undefined());
        CHECK(r.is_undefined());
        continue;
      }
      REQUIRE(q.is_integer());
      REQUIRE(r.is_integer());
      CHECK(int_compare(r, I(0)) >= 0);
      Value absb = int_compare(b, I(0)) < 0 ? int_neg(b) : b;
      CHECK(int_compare(r, absb) < 0);
      CHECK(int_compare(int_add(int_mul(b, q), r), a) == 0);
      // normalised: a big result is out of the small range
      if (q.is_bigint()) CHECK((int_compare(q, I(Value::kSmallMax)) > 0 || int_compare(q, I(Value::kSmallMin)) < 0));
      if (r.is_bigint()) CHECK(int_compare(r, I(Value::kSmallMax)) > 0);
    }
  }
  // big operands with the sign table
  Value big = Z("100000000000000000000000000007");  // odd
  Value two = I(2);
  CHECK(S(int_div(big, two)) == "50000000000000000000000000003");
  CHECK(S(int_mod(big, two)) == "1");
  CHECK(S(int_div(int_neg(big), two)) == "-50000000000000000000000000004");
  CHECK(S(int_mod(int_neg(big), two)) == "1");
  CHECK(S(int_div(big, I(-2))) == "-50000000000000000000000000003");
  CHECK(S(int_mod(big, I(-2))) == "1");
  CHECK(S(int_div(int_neg(big), I(-2))) == "50000000000000000000000000004");
  CHECK(S(int_mod(int_neg(big), I(-2))) == "1");
  CHECK(S(int_div(I(-7), big)) == "-1");
  CHECK(S(int_mod(I(-7), big)) == "100000000000000000000000000000");
  CHECK(S(int_div(I(-7), int_neg(big))) == "1");
  CHECK(S(int_mod(I(-7), int_neg(big))) == "100000000000000000000000000000");
}

TEST_CASE("compare") {
  Value big = Z("100000000000000000000000000000");
  Value nbig = int_neg(big);
  CHECK(int_compare(I(1), I(2)) == -1);
  CHECK(int_compare(I(2), I(2)) == 0);
  CHECK(int_compare(I(3), I(2)) == 1);
  CHECK(int_compare(I(Value::kSmallMin), I(Value::kSmallMax)) == -1);
  CHECK(int_compare(big, I(Value::kSmallMax)) == 1);
  CHECK(int_compare(I(Value::kSmallMax), big) == -1);
  CHECK(int_compare(nbig, I(Value::kSmallMin)) == -1);
  CHECK(int_compare(I(0), nbig) == 1);
  CHECK(int_compare(big, Z("100000000000000000000000000000")) == 0);
  CHECK(int_compare(nbig, big) == -1);
  CHECK(int_compare(big, nbig) == 1);
}

TEST_CASE("non-integers give ?") {
  Value bad[] = {Value::nil(),       Value::truth(),   Value::falsity(),
                 Value::undefined(), Value::symbol(1), make_pair(I(1), I(2))};
  Value big = Z("100000000000000000000000000000");
  for (const Value& x : bad) {
    CHECK(int_neg(x).is_undefined());
    for (const Value& n : {I(1), I(0), big}) {
      CHECK(int_add(x, n).is_undefined());
      CHECK(int_add(n, x).is_undefined());
      CHECK(int_sub(x, n).is_undefined());
      CHECK(int_sub(n, x).is_undefined());
      CHECK(int_mul(x, n).is_undefined());
      CHECK(int_mul(n, x).is_undefined());
      CHECK(int_div(x, n).is_undefined());
      CHECK(int_div(n, x).is_undefined());
      CHECK(int_mod(x, n).is_undefined());
      CHECK(int_mod(n, x).is_undefined());
    }
  }
}

TEST_CASE("integer_built_by normalises") {
  auto from = [](const char* digits) { return integer_built_by([&](mpz_ptr z) { mpz_set_str(z, digits, 10); }); };
  CHECK(from("-5").is_small());
  CHECK(from("-5").small_value() == -5);
  CHECK(from("4611686018427387904").is_bigint());  // 2^62
  CHECK(from("-4611686018427387904").is_small());
  CHECK(from("-4611686018427387904").small_value() == Value::kSmallMin);
}
