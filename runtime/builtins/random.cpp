// random: (cust, n) -> a uniform integer in 0 .. n-1 to cust (n may be big).
#include <vector>

#include "runtime/builtins/devices.hpp"
#include "runtime/context.hpp"
#include "runtime/integer.hpp"
#include "runtime/runtime.hpp"

namespace humus::rt {

void random_behavior(Actor&, const Value& msg, Context& cx) {
  std::mt19937_64& rng = cx.rt.devices().rng;
  if (msg.is_pair() && head(msg).is_actor() && tail(msg).is_small() && tail(msg).small_value() > 0) {
    std::uniform_int_distribution<int64_t> pick(0, tail(msg).small_value() - 1);
    cx.fx.send(head(msg).as<Actor>(), Value::small(pick(rng)));
    return;
  }
  if (msg.is_pair() && head(msg).is_actor() && tail(msg).is_bigint() && mpz_sgn(tail(msg).as<BigInt>()->z) > 0) {
    // 64 random bits more than n has, reduced mod n: the bias is below 2^-64.
    const mpz_t& n = tail(msg).as<BigInt>()->z;
    std::vector<uint64_t> words(mpz_sizeinbase(n, 2) / 64 + 2);
    for (auto& w : words) w = rng();
    Value v = integer_built_by([&](mpz_ptr r) {
      mpz_import(r, words.size(), 1, sizeof(uint64_t), 0, 0, words.data());
      mpz_mod(r, r, n);
    });
    cx.fx.send(head(msg).as<Actor>(), std::move(v));
    return;
  }
  cx.rt.unhandled(cx, msg);
}

}  // namespace humus::rt
