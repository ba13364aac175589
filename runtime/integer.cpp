// The slow halves of integer arithmetic: GMP for anything beyond the small range.
#include "runtime/integer.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "runtime/limits.hpp"

namespace humus::rt {

namespace {

// GMP allocates through operator new: counted for --max-memory where the
// humus command counts (runtime/memory_meter.hpp), and out of memory is a
// std::bad_alloc that fails the event, where GMP's own functions abort the
// process. GMP's manual leaves throwing from these undefined; in practice
// (GMP is built with unwind tables, as Debian's is) the exception passes
// through and the operation's scratch space is what leaks. The size checks
// below (integer_limit) keep it a rare path. Unsized deletes: clang 14 has
// no sized delete without -fsized-deallocation.
#ifndef HUMUS_MINI_GMP
void* gmp_alloc(size_t n) { return ::operator new(n); }
void* gmp_realloc(void* p, size_t old, size_t n) {
  void* q = ::operator new(n);
  std::memcpy(q, p, std::min(old, n));
  ::operator delete(p);
  return q;
}
void gmp_free(void* p, size_t) { ::operator delete(p); }

// Before main: every mpz is made and freed with the same functions. Not for
// mini-gmp (the playground): it calls realloc with an old size of 0, so the
// copy above would lose the number; there, its own malloc/realloc stay.
[[maybe_unused]] const bool gmp_installed = (mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free), true);
#endif

static_assert(sizeof(mp_limb_t) == 8, "a small integer is assumed to fit in one limb");

// int64 in and out of an mpz. Where `long` is 64 bits (the native build)
// these are GMP's own _si calls; where it is 32 (wasm32) they go by limbs.
void set_int64(mpz_ptr z, int64_t n) {
  if constexpr (sizeof(long) == 8) {
    mpz_set_si(z, long(n));
  } else {
    const mp_limb_t limb = n < 0 ? mp_limb_t(0) - mp_limb_t(n) : mp_limb_t(n);
    mpz_import(z, 1, 1, sizeof limb, 0, 0, &limb);
    if (n < 0) mpz_neg(z, z);
  }
}

std::optional<int64_t> get_int64(mpz_srcptr z) {
  if constexpr (sizeof(long) == 8) {
    if (!mpz_fits_slong_p(z)) return std::nullopt;
    return int64_t(mpz_get_si(z));
  } else {
    if (mpz_size(z) > 1) return std::nullopt;
    const mp_limb_t m = mpz_getlimbn(z, 0);  // |z|
    if (mpz_sgn(z) >= 0) {
      if (m > mp_limb_t(INT64_MAX)) return std::nullopt;
      return int64_t(m);
    }
    if (m > mp_limb_t(INT64_MAX) + 1) return std::nullopt;
    return int64_t(mp_limb_t(0) - m);
  }
}

// An mpz view of an integer Value without allocating: a big integer lends
// its own mpz, a small one is wrapped read-only around a stack limb.
class MpzView {
 public:
  explicit MpzView(const Value& v) {
    if (v.is_small()) {
      int64_t n = v.small_value();
      limb_ = n < 0 ? mp_limb_t(0) - mp_limb_t(n) : mp_limb_t(n);
      ptr_ = mpz_roinit_n(tmp_, &limb_, n < 0 ? -1 : n > 0 ? 1 : 0);
    } else {
      ptr_ = v.as<BigInt>()->z;
    }
  }
  MpzView(const MpzView&) = delete;
  MpzView& operator=(const MpzView&) = delete;
  mpz_srcptr get() const { return ptr_; }

 private:
  mp_limb_t limb_ = 0;
  mpz_t tmp_;
  mpz_srcptr ptr_;
};

bool both_integers(const Value& a, const Value& b) { return a.is_integer() && b.is_integer(); }

// Sizes are checked before GMP allocates a result: GMP aborts when it runs
// out of memory, and a gigantic integer must fail its event instead
// (integer_limit, runtime/limits.hpp).
uint64_t bits_of(mpz_srcptr z) { return mpz_sizeinbase(z, 2); }

int sign_of(const Value& v) {
  if (v.is_small()) {
    int64_t n = v.small_value();
    return (n > 0) - (n < 0);
  }
  return mpz_sgn(v.as<BigInt>()->z);
}

}  // namespace

namespace detail {

Value make_big(int64_t n) {
  auto* r = new BigInt();
  set_int64(r->z, n);
  return Value::adopt(r);
}

Value int_neg_slow(const Value& a) {
  if (!a.is_integer()) return Value::undefined();
  MpzView x(a);
  return integer_built_by([&](mpz_ptr r) { mpz_neg(r, x.get()); });
}

Value int_add_slow(const Value& a, const Value& b) {
  if (!both_integers(a, b)) return Value::undefined();
  MpzView x(a), y(b);
  check_integer_bits(std::max(bits_of(x.get()), bits_of(y.get())) + 1);
  return integer_built_by([&](mpz_ptr r) { mpz_add(r, x.get(), y.get()); });
}

Value int_sub_slow(const Value& a, const Value& b) {
  if (!both_integers(a, b)) return Value::undefined();
  MpzView x(a), y(b);
  check_integer_bits(std::max(bits_of(x.get()), bits_of(y.get())) + 1);
  return integer_built_by([&](mpz_ptr r) { mpz_sub(r, x.get(), y.get()); });
}

Value int_mul_slow(const Value& a, const Value& b) {
  if (!both_integers(a, b)) return Value::undefined();
  MpzView x(a), y(b);
  check_integer_bits(bits_of(x.get()) + bits_of(y.get()));
  return integer_built_by([&](mpz_ptr r) { mpz_mul(r, x.get(), y.get()); });
}

// Euclidean division rounds towards -inf for a positive divisor (floor) and
// towards +inf for a negative one (ceiling): either way the remainder is >= 0.
Value int_div_slow(const Value& a, const Value& b) {
  if (!both_integers(a, b)) return Value::undefined();
  int sb = sign_of(b);
  if (sb == 0) return Value::undefined();
  MpzView x(a), y(b);
  return integer_built_by([&](mpz_ptr r) {
    if (sb > 0)
      mpz_fdiv_q(r, x.get(), y.get());
    else
      mpz_cdiv_q(r, x.get(), y.get());
  });
}

Value int_mod_slow(const Value& a, const Value& b) {
  if (!both_integers(a, b)) return Value::undefined();
  if (sign_of(b) == 0) return Value::undefined();
  MpzView x(a), y(b);
  return integer_built_by([&](mpz_ptr r) { mpz_mod(r, x.get(), y.get()); });  // mpz_mod: sign of |b|
}

int int_compare_slow(const Value& a, const Value& b) {
  MpzView x(a), y(b);
  int c = mpz_cmp(x.get(), y.get());
  return (c > 0) - (c < 0);
}

}  // namespace detail

Value normalise_integer(Value big) {
  if (auto n = get_int64(big.as<BigInt>()->z); n && Value::fits_small(*n)) return Value::small(*n);
  return big;
}

std::optional<int64_t> integer_to_int64(const Value& v) {
  if (v.is_small()) return v.small_value();
  if (!v.is_bigint()) return std::nullopt;
  return get_int64(v.as<BigInt>()->z);
}

Value parse_integer(std::string_view digits, unsigned radix, bool negative) {
  // Fast path: accumulate in 64 bits while it cannot overflow.
  int64_t n = 0;
  bool fits = digits.size() <= 60;  // bounds the loop; overflow is checked anyway
  for (size_t i = 0; fits && i < digits.size(); ++i) {
    char c = digits[i];
    unsigned d = c >= '0' && c <= '9'   ? unsigned(c - '0')
                 : c >= 'a' && c <= 'z' ? unsigned(c - 'a' + 10)
                 : c >= 'A' && c <= 'Z' ? unsigned(c - 'A' + 10)
                                        : 99;
    if (d >= radix) return Value::undefined();  // the parser checked; be safe anyway
    if (__builtin_mul_overflow(n, int64_t(radix), &n) || __builtin_add_overflow(n, int64_t(d), &n)) fits = false;
  }
  if (fits) return make_integer(negative ? -n : n);

  const std::string s(digits);
  bool valid = true;
  Value v = integer_built_by([&](mpz_ptr z) {
    valid = mpz_set_str(z, s.c_str(), int(radix)) == 0;
    if (negative) mpz_neg(z, z);
  });
  return valid ? v : Value::undefined();
}

void append_integer(std::string& out, const Value& v) {
  if (v.is_small()) {
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v.small_value());
    out.append(buf, res.ptr);
    return;
  }
  mpz_srcptr z = v.as<BigInt>()->z;
  size_t old = out.size();
  out.resize(old + mpz_sizeinbase(z, 10) + 2);  // digits (maybe one too many), sign, NUL
  mpz_get_str(out.data() + old, 10, z);
  out.resize(old + std::char_traits<char>::length(out.data() + old));
}

std::string integer_to_string(const Value& v) {
  std::string s;
  append_integer(s, v);
  return s;
}

}  // namespace humus::rt
