// The VM: one loop over the instructions of opcodes.hpp (run). The call
// protocol around it (entering from C++, unwinding, foreign calls) is in
// calls.cpp, the making of closures in closures.cpp, the built-ins' slow
// paths in builtin_slow.cpp, the frames in frames.hpp.
//
// Registers live on a stack of Values per context; a frame is a window of it
// that starts at `base`, with the running function (or block value) just
// below it, in R[-1], where its captures are read. A call's callee and
// arguments are the caller's top registers R(a), R(a+1..a+b), so the
// callee's frame starts at a+1 with its arguments already in place as its
// first registers; its result goes back into R(a). Every register is always
// a valid Value (empty, or owning one reference): a frame that ends releases
// its registers, and a register that is written releases what it held.
//
// Frames are CallInfos in a vector beside the stack: a Humus call pushes
// one and the loop goes on with the callee, so Humus recursion never grows
// the C++ stack. A tail call, or a statement's last word that is a call or
// a block, replaces the running frame instead. The stack may move when it
// grows (every handler that can grow it reloads `R`).
#include "interpreter/engine/vm.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "interpreter/engine/builtin_slow.hpp"
#include "interpreter/engine/calls.hpp"
#include "interpreter/engine/closures.hpp"
#include "interpreter/engine/frames.hpp"
#include "interpreter/engine/registers.hpp"
#include "runtime/actor.hpp"
#include "runtime/integer.hpp"
#include "runtime/packed.hpp"
#include "runtime/runtime.hpp"

namespace humus::engine::vm {

using rt::runtime_error;

namespace {

// A pattern test met a packed value (a string, a map node) where it looks
// for a pair: the register gets the equal pairs instead (rt::expand), so
// the code after the test takes them apart as any pairs (runtime/packed.hpp).
// False for anything else.
[[gnu::noinline]] bool expand_packed(Value& r) {
  if (!r.is_cons()) return false;
  Value pairs = rt::expand(r);
  r = std::move(pairs);
  return true;
}

// UNPAIRJB on a packed value in a borrowed register: its pairs
// are made (runtime/packed.hpp) and, the register holding nothing counted,
// the frame's keep list holds them until the frame ends.
[[gnu::noinline]] void unpair_packed_borrowed(Value* R, CallInfo& c, const Instr& in) {
  Value pairs = rt::expand(R[in.a]);
  const auto* p = pairs.as<rt::Pair>();
  const uint64_t h = p->head.bits(), t = p->tail.bits();
  Value kept;
  kept.put_bits(c.keep);
  c.keep = rt::make_pair(std::move(pairs), std::move(kept)).leak_bits();
  set_uncounted(R[in.b], h);
  set_uncounted(R[(in.x & 2) ? in.a : in.b + 1u], t);
}

// JNEQ's test, and UNPAIRJBJNEQ's: whether two values differ. Different
// words differ when either is not an object; objects are compared.
[[gnu::always_inline]] inline bool differ(const Value& a, const Value& b) {
  const uint64_t x = a.bits(), y = b.bits();
  return x != y && ((x & 3) || (y & 3) || !rt::equal(a, b));
}

}  // namespace

#if defined(__GNUC__)
#define HUMUS_THREADED 1
#endif

Outcome run(VmState& vm, rt::Context& cx, Value& result) {
  // The running frame and the constants are read through the call stack
  // and P where used rather than kept in variables of their own: fewer
  // values for the loop to hold in registers (engine/README.md, Measured).
#define ci (&vm.calls.back())
  const Proto* P = ci->proto;
  const Instr* pc = ci->pc;
  Value* R = vm.stack + ci->base;
#define K (P->consts.data())
  // What do_tailexec releases: a drop field and the flags that say its form.
  uint32_t drops = kDropAll;
  uint8_t drops_x = 0;
  uint64_t fbits;  // a tail call's callee (TAILCALLD goes on in TAILCALL's code with it)

// The running frame changed (a call, a return, a tail call): reload it.
#define RELOAD()             \
  do {                       \
    P = ci->proto;           \
    R = vm.stack + ci->base; \
  } while (0)
// The running instruction: a handler reads the operands it uses from it
// (pc has moved past it), and reads none once it has moved pc itself.
#define INS (pc[-1])
#define LOC() P->loc(pc - 1)
#define CHECK_EMPTY() check_empty_stack(vm)
#define JUMP(offset) (pc += int16_t(offset))  // jumps are relative to the next instruction
// Whether no built-in's global is rebound, so the arithmetic opcodes may
// compute on small integers in place (globals.hpp): read fresh where a
// built-in's slow path decides, and kept in `intact` for the fast paths,
// which test one word instead of two atomics. `intact` is read again after
// SETGLOBAL and at each safe point: a rebinding by a statement on another
// thread is seen by a running loop at its next safe point.
#define INTACT_NOW()                                            \
  (!rt::Globals::any_rebound.load(std::memory_order_relaxed) || \
   cx.rt.globals().builtins_intact().load(std::memory_order_relaxed))
  uint64_t intact = INTACT_NOW() ? 1 : 0;  // 1 or 0: it masks a tag bit
#define INTACT() (intact != 0)
#define SAFE_POINT()                    \
  do {                                  \
    if (--vm.ticks == 0) [[unlikely]] { \
      vm.ticks = kSafePointTicks;       \
      safe_point(cx, LOC());            \
      intact = INTACT_NOW() ? 1 : 0;    \
    }                                   \
  } while (0)

#if HUMUS_THREADED
  static const void* const kLabels[] = {
#define OP(name) &&L_##name,
#include "interpreter/engine/opcodes.hpp"
#undef OP
  };
#define NEXT()                                      \
  do {                                              \
    goto* kLabels[static_cast<size_t>((pc++)->op)]; \
  } while (0)
#define CASE(name) L_##name:
  NEXT();
#else
#define NEXT() continue
#define CASE(name) case Op::name:
  for (;;) {
    switch ((pc++)->op) {
#endif

  // Pushes a frame for `proto` whose registers start at R(a+1), entered at
  // `entry`; this frame goes on after the call when the callee ends.
  // `borrowed_`: the function below the frame is a global's (immortal), so
  // the frame's end need not release it.
#define PUSH(proto_, entry_, kind_, borrowed_, has_site_, site_, loc_) \
  do {                                                                 \
    SAFE_POINT();                                                      \
    const uint32_t nb = ci->base + INS.a + 1;                          \
    ci->pc = pc;                                                       \
    if (!vm.room_for_call(size_t(nb) + (proto_)->nregs)) [[unlikely]]  \
      too_deep(loc_);                                                  \
    vm.calls.push_call((proto_), nb, (kind_), (borrowed_));            \
    if (has_site_) {                                                   \
      ci->has_site = true;                                             \
      ci->site = (site_);                                              \
    }                                                                  \
    P = (proto_);                                                      \
    R = vm.stack + nb;                                                 \
    pc = P->code.data() + (entry_);                                    \
  } while (0)

  // ---------------------------------------------------- loads and values
  CASE(MOVE) {
    R[INS.a].put_bits((INS.x & 1) ? R[INS.b].leak_bits() : Value::retain_bits(R[INS.b].bits()));
    NEXT();
  }
  CASE(MOVE2) {
    R[INS.a].put_bits((INS.x & 1) ? R[INS.b].leak_bits() : Value::retain_bits(R[INS.b].bits()));
    R[INS.a + 1].put_bits((INS.x & 2) ? R[INS.c].leak_bits() : Value::retain_bits(R[INS.c].bits()));
    ++pc;  // past the second MOVE
    NEXT();
  }
  CASE(MOVEL) {
    R[INS.a].put_bits(R[INS.b].bits());  // uncounted: the CALLL after it lends it
    NEXT();
  }
  CASE(MOVE2L) {
    R[INS.a].put_bits((INS.x & 1) ? R[INS.b].leak_bits() : Value::retain_bits(R[INS.b].bits()));
    R[INS.a + 1].put_bits(R[INS.c].bits());  // as MOVEL
    ++pc;                                    // past the MOVEL
    NEXT();
  }
  CASE(LOADK) {
    R[INS.a].put_bits(Value::retain_bits(K[INS.b].bits()));
    NEXT();
  }
  CASE(GETCAP) {
    R[INS.a].put_bits(Value::retain_bits(captures_of(R)[INS.b].bits()));
    NEXT();
  }
  CASE(GETGLOBAL) {
    const GlobalRef& g = P->globals[INS.b];
    const uint64_t bits = g.cell->load(std::memory_order_acquire);
    if (!bits) [[unlikely]]
      undefined_global(cx.rt.globals().name(g.slot), cx, LOC());
    R[INS.a] = Value::from_immortal_bits(bits);  // a global's object is immortal: no count
    NEXT();
  }
  CASE(SETGLOBAL) {
    cx.rt.globals().set(P->globals[INS.b].slot, R[INS.a]);
    intact = INTACT_NOW() ? 1 : 0;
    NEXT();
  }
  CASE(SELFFN) {
    R[INS.a] = R[-1];
    NEXT();
  }
  CASE(SIBLING) {
    R[INS.a] = make_sibling(P->tables->siblings[INS.b], R);
    NEXT();
  }
  CASE(SELF) {
    if (!cx.self) [[unlikely]]
      runtime_error(LOC(), "SELF is only defined inside an actor's behavior");
    R[INS.a] = Value::share(cx.self);
    NEXT();
  }
  CASE(NOW) {
    R[INS.a] = rt::make_integer(cx.rt.now_ms());
    NEXT();
  }
  CASE(CLOSURE) {
    R[INS.a] = make_closure(P->tables->closures[INS.b], R);
    NEXT();
  }
  CASE(GROUP) {
    make_group(P->tables->groups[INS.b], R);
    NEXT();
  }
  CASE(BLOCK) {
    R[INS.a] = make_block(P->tables->blocks[INS.b], R);
    NEXT();
  }
  CASE(PAIR) {
    set(R[INS.a], rt::make_pair(take(R[INS.b], INS.x & 1), take(R[INS.c], INS.x & 2)));
    NEXT();
  }
  CASE(TUPLE) {
    R[INS.a] = tuple_of(R + INS.b, INS.c);
    NEXT();
  }
  CASE(HOLE) {
    // (x, f(y)) as a function's value: the tuple is made now, its last part
    // left open, and f's call becomes a tail call (a loop, when f is the
    // running function). The value this frame returns fills the hole.
    for (uint32_t i = 0; i < INS.b; ++i) {
      Value part;
      part.put_bits((INS.x & 1) ? R[INS.a + i].leak_bits() : Value::retain_bits(R[INS.a + i].bits()));
      auto* p = new rt::Pair(std::move(part), Value::nil());
      const uint64_t bits = Value::adopt(p).leak_bits();
      if (ci->hole)
        ci->hole->put_bits(bits);
      else
        ci->root = bits;
      ci->hole = &p->tail;
    }
    NEXT();
  }
  CASE(NEWACTOR) {
    R[INS.a] = cx.rt.new_actor(Value(), INS.b ? K[INS.b - 1].symbol_id() : rt::Actor::kNoName);
    NEXT();
  }
  CASE(NEW) {
    if (!R[INS.b].is_function()) [[unlikely]]
      runtime_error(LOC(), "NEW needs a function as the behavior, not " + describe(R[INS.b], cx));
    R[INS.a] = cx.rt.new_actor(R[INS.b]);
    NEXT();
  }
  CASE(SETBEH) {
    if (!R[INS.b].is_function()) [[unlikely]]
      runtime_error(LOC(), "CREATE ... WITH needs a function as the behavior, not " + describe(R[INS.b], cx));
    cx.rt.set_behavior(*R[INS.a].as<rt::Actor>(), R[INS.b]);
    NEXT();
  }

  // ------------------------------------------------------------ built-ins
// The built-ins on two values: on small integers in place, on words (the
// common case needs no Value made and dropped); anything else, or a
// built-in's global bound to something else, in a function of its own.
#define SMALL(w) (int64_t(w) >> 1)
#define WORD(n) ((uint64_t(n) << 1) | 1)
#define OPERANDS()                                               \
  const uint64_t x = R[INS.b].bits();                            \
  const uint64_t y = ((INS.x & 1) ? K[INS.c] : R[INS.c]).bits(); \
  const bool fast = (x & y & intact) != 0
#define BUILTIN_SLOW(name)                                                                                            \
  do {                                                                                                                \
    slow_to(vm, INS.a, builtin_slow(Op::name, R[INS.b], (INS.x & 1) ? K[INS.c] : R[INS.c], INTACT_NOW(), cx, LOC())); \
    RELOAD();                                                                                                         \
  } while (0)
#define TEST(name, expr)                                                           \
  CASE(name) {                                                                     \
    OPERANDS();                                                                    \
    if (fast) [[likely]] {                                                         \
      R[INS.a].put_bits((expr) ? Value::truth().bits() : Value::falsity().bits()); \
      NEXT();                                                                      \
    }                                                                              \
    BUILTIN_SLOW(name);                                                            \
    NEXT();                                                                        \
  }
  // add and sub on the tagged words themselves: (a<<1|1) + (b<<1) is
  // (a+b)<<1|1, and it overflows 64 bits exactly when a+b leaves the
  // 63-bit small range, so the processor's overflow flag is the range test.
#define TAGGED(name, builtin)                                          \
  CASE(name) {                                                         \
    OPERANDS();                                                        \
    int64_t r;                                                         \
    if (fast && !builtin(int64_t(x), int64_t(y - 1), &r)) [[likely]] { \
      R[INS.a].put_bits(uint64_t(r));                                  \
      NEXT();                                                          \
    }                                                                  \
    BUILTIN_SLOW(name);                                                \
    NEXT();                                                            \
  }
  TAGGED(ADD, __builtin_add_overflow)
  TAGGED(SUB, __builtin_sub_overflow)
  // `IF $q = $sub(p, d)`: the sum or difference, and the JNEQ after it that
  // compares it with R(j.a), in one step. A small integer equals only its
  // own word. Anything else runs the plain built-in, and then the JNEQ.
#define TAGGED_JNEQ(name, plain, builtin)                              \
  CASE(name) {                                                         \
    OPERANDS();                                                        \
    int64_t r;                                                         \
    if (fast && !builtin(int64_t(x), int64_t(y - 1), &r)) [[likely]] { \
      if (!(INS.x & kResultUnread)) R[INS.a].put_bits(uint64_t(r));    \
      const Instr& j = *pc++;                                          \
      if (R[j.a].bits() != uint64_t(r)) JUMP(j.c);                     \
      NEXT();                                                          \
    }                                                                  \
    BUILTIN_SLOW(plain);                                               \
    NEXT();                                                            \
  }
  TAGGED_JNEQ(ADDJNEQ, ADD, __builtin_add_overflow)
  TAGGED_JNEQ(SUBJNEQ, SUB, __builtin_sub_overflow)
  CASE(MUL) {
    OPERANDS();
    int64_t r;
    if (fast && !__builtin_mul_overflow(SMALL(x), SMALL(y), &r) && Value::fits_small(r)) [[likely]] {
      R[INS.a].put_bits(WORD(r));
      NEXT();
    }
    BUILTIN_SLOW(MUL);
    NEXT();
  }
  CASE(DIV) {  // Euclidean: truncate, then one step when the remainder is negative
    OPERANDS();
    if (fast && SMALL(y) != 0) [[likely]] {
      const int64_t a = SMALL(x), b = SMALL(y);
      int64_t q = a / b;
      if (a % b < 0) q += b > 0 ? -1 : 1;
      if (Value::fits_small(q)) [[likely]] {  // only -2^62 / -1 does not
        R[INS.a].put_bits(WORD(q));
        NEXT();
      }
    }
    BUILTIN_SLOW(DIV);
    NEXT();
  }
  CASE(MOD) {  // Euclidean: never negative
    OPERANDS();
    if (fast && SMALL(y) != 0) [[likely]] {
      const int64_t r = mod_small(SMALL(x), SMALL(y));
      R[INS.a].put_bits(WORD(r));
      NEXT();
    }
    BUILTIN_SLOW(MOD);
    NEXT();
  }
  // Two small integers compare as their tagged words do (the same tag bit).
  TEST(LESS, int64_t(x) < int64_t(y))
  TEST(LESSEQ, int64_t(x) <= int64_t(y))
  TEST(GREATER, int64_t(x) > int64_t(y))
  TEST(GREATEREQ, int64_t(x) >= int64_t(y))
  CASE(COMPARE) {
    OPERANDS();
    if (fast) [[likely]] {
      R[INS.a].put_bits(WORD((SMALL(x) > SMALL(y)) - (SMALL(x) < SMALL(y))));
      NEXT();
    }
    BUILTIN_SLOW(COMPARE);
    NEXT();
  }
  CASE(EQ) {
    OPERANDS();
    if (INTACT() && (x == y || (x & 3) || (y & 3))) [[likely]] {  // the same word, or not both objects
      R[INS.a].put_bits(x == y ? Value::truth().bits() : Value::falsity().bits());
      NEXT();
    }
    (void)fast;
    BUILTIN_SLOW(EQ);
    NEXT();
  }
  // With a small constant k in c (k + 32768): k<<1 on the tagged word.
#define TAGGED_K(name, plain, builtin)                                                                         \
  CASE(name) {                                                                                                 \
    const uint64_t x = R[INS.b].bits();                                                                        \
    int64_t r;                                                                                                 \
    if ((x & intact) && !builtin(int64_t(x), (int64_t(INS.c) - 32768) * 2, &r)) [[likely]] {                   \
      R[INS.a].put_bits(uint64_t(r));                                                                          \
      NEXT();                                                                                                  \
    }                                                                                                          \
    slow_to(vm, INS.a,                                                                                         \
            builtin_slow(Op::plain, R[INS.b], Value::small(int64_t(INS.c) - 32768), INTACT_NOW(), cx, LOC())); \
    RELOAD();                                                                                                  \
    NEXT();                                                                                                    \
  }
  // div and mod by a constant 2^k (k in c). Euclidean division by a
  // positive divisor is floor division, so on the tagged word 2n+1 an
  // arithmetic shift by k with the tag bit set again is 2*floor(n/2^k)+1,
  // and the remainder is n's low k bits (never negative): a mask.
  CASE(DIVP) {
    const uint64_t x = R[INS.b].bits();
    if (x & intact) [[likely]] {
      R[INS.a].put_bits(uint64_t(int64_t(x) >> INS.c) | 1);
      NEXT();
    }
    slow_to(vm, INS.a, builtin_slow(Op::DIV, R[INS.b], Value::small(int64_t(1) << INS.c), INTACT_NOW(), cx, LOC()));
    RELOAD();
    NEXT();
  }
  CASE(MODP) {
    const uint64_t x = R[INS.b].bits();
    if (x & intact) [[likely]] {
      R[INS.a].put_bits(mod_pow2_word(x, INS.c));
      NEXT();
    }
    slow_to(vm, INS.a, builtin_slow(Op::MOD, R[INS.b], Value::small(int64_t(1) << INS.c), INTACT_NOW(), cx, LOC()));
    RELOAD();
    NEXT();
  }
  TAGGED_K(ADDI, ADD, __builtin_add_overflow)
  TAGGED_K(SUBI, SUB, __builtin_sub_overflow)
  // ADDI, then the TAILSELF after it in the same dispatch (a loop's count,
  // `safe(q, rest, add(d, 1))`); anything but a small sum is the ADDI alone,
  // and its TAILSELF word runs next.
  CASE(ADDISELF) {
    {
      const uint64_t x = R[INS.b].bits();
      int64_t r;
      if (!(x & intact) || __builtin_add_overflow(int64_t(x), (int64_t(INS.c) - 32768) * 2, &r)) [[unlikely]] {
        slow_to(vm, INS.a,
                builtin_slow(Op::ADD, R[INS.b], Value::small(int64_t(INS.c) - 32768), INTACT_NOW(), cx, LOC()));
        RELOAD();
        NEXT();
      }
      R[INS.a].put_bits(uint64_t(r));
    }
    ++pc;  // INS is the TAILSELF now
    goto tail_self;
  }
  // `IF $mod(n, d) = 0`: the remainder, and the JNWORD after it that tests
  // it against a word, in one step; anything else as MOD (MODP) alone.
  CASE(MODJNWORD) {
    OPERANDS();
    if (fast && SMALL(y) != 0) [[likely]] {
      const int64_t r = mod_small(SMALL(x), SMALL(y));
      R[INS.a].put_bits(WORD(r));
      const Instr& j = *pc++;
      if (WORD(r) != K[j.b].bits()) JUMP(j.c);
      NEXT();
    }
    BUILTIN_SLOW(MOD);
    NEXT();
  }
  CASE(MODPJNWORD) {
    const uint64_t x = R[INS.b].bits();
    if (x & intact) [[likely]] {
      const uint64_t r = mod_pow2_word(x, INS.c);
      R[INS.a].put_bits(r);
      const Instr& j = *pc++;
      if (r != K[j.b].bits()) JUMP(j.c);
      NEXT();
    }
    slow_to(vm, INS.a, builtin_slow(Op::MOD, R[INS.b], Value::small(int64_t(1) << INS.c), INTACT_NOW(), cx, LOC()));
    RELOAD();
    NEXT();
  }

  // ---------------------------------------------------- tests and jumps
  CASE(JMP) {
    JUMP(INS.c);
    NEXT();
  }
  CASE(JNWORD) {
    if (R[INS.a].bits() != K[INS.b].bits()) JUMP(INS.c);
    NEXT();
  }
  CASE(JNEQ) {
    if (differ(R[INS.a], R[INS.b])) JUMP(INS.c);
    NEXT();
  }
  CASE(JNEQK) {
    if (!equal_values(R[INS.a], K[INS.b])) JUMP(INS.c);
    NEXT();
  }
#define JCOMPARE(name, test)                                                                                      \
  CASE(name) {                                                                                                    \
    const uint64_t x = R[INS.a].bits();                                                                           \
    const uint64_t y = ((INS.x & 1) ? K[INS.b] : R[INS.b]).bits();                                                \
    if (x & y & intact) [[likely]] {                                                                              \
      if (!(int64_t(x) test int64_t(y))) JUMP(INS.c);                                                             \
    } else {                                                                                                      \
      const bool holds =                                                                                          \
          builtin_slow(Op::name, R[INS.a], (INS.x & 1) ? K[INS.b] : R[INS.b], INTACT_NOW(), cx, LOC()).is_true(); \
      RELOAD();                                                                                                   \
      if (!holds) JUMP(INS.c);                                                                                    \
    }                                                                                                             \
    NEXT();                                                                                                       \
  }
  JCOMPARE(JNLESS, <)
  JCOMPARE(JNLESSEQ, <=)
  JCOMPARE(JNGREATER, >)
  JCOMPARE(JNGREATEREQ, >=)
  CASE(JNPAIR) {
    if (!R[INS.a].is_pair() && !expand_packed(R[INS.a])) JUMP(INS.c);
    NEXT();
  }
  CASE(JNTAG) {
    const Value& v = R[INS.a];
    if ((!v.is_pair() && !expand_packed(R[INS.a])) || v.as<rt::Pair>()->head.bits() != K[INS.b].bits()) JUMP(INS.c);
    NEXT();
  }
  CASE(JNSELF) {
    const Value& v = R[INS.a];
    if (!(cx.self && v.is_actor() && v.object() == cx.self)) JUMP(INS.c);
    NEXT();
  }
  CASE(JNCODE) {
    // An inlined call's guard: the global still holds that function (a
    // later DEF may have bound it to another). Top-level functions capture
    // nothing, so the code alone says which function it is.
    const uint64_t w = P->globals[INS.a].cell->load(std::memory_order_acquire);
    if (!w || (w & 3) || reinterpret_cast<const rt::Object*>(w)->kind != rt::ObjKind::Closure ||
        reinterpret_cast<const rt::Closure*>(w)->code != P->inlined[INS.b])
      JUMP(INS.c);
    NEXT();
  }
  CASE(TAGSWITCH) {
    const Value& v = R[INS.a];
    if (v.is_pair() || expand_packed(R[INS.a]))
      pc = P->code.data() + P->switches[INS.b].target(v.as<rt::Pair>()->head.bits());
    else
      JUMP(INS.c);
    NEXT();
  }
  CASE(UNPAIRJ) {
    if (!R[INS.a].is_pair() && !expand_packed(R[INS.a])) {
      JUMP(INS.c);
      NEXT();
    }
    goto unpair;
  }
  CASE(UNPAIR) {
  unpair:
    if (INS.x & 2)
      unpair_in_place(R, INS.a, INS.b);
    else if (INS.x & 1)
      unpair_last(R, INS.a, INS.b);
    else
      unpair(R, INS.a, INS.b);
    NEXT();
  }
  CASE(BORROW) {
    ci->anchor = R[INS.b].bits();  // the count goes to the anchor; R(b) is borrowed from here
    ci->keep = Value::empty_bits();
    // What the other borrowed registers hold is not the frame's: a caller's
    // values above its call's arguments, counted. Released here, so that
    // the raw writes to come lose no count.
    drop_set(R, P->borrowed & ~(1u << INS.b));
    NEXT();
  }
  CASE(MOVEB) {
    set_uncounted(R[INS.a], R[INS.b].bits());
    NEXT();
  }
  // UNPAIRJB, then the JNEQ after it in the same dispatch (`CASE l OF
  // (p, rest) : IF $q = $p`): on a pair not walked as its own (below),
  // both; anything else is the UNPAIRJB alone, and its JNEQ word runs next.
  CASE(UNPAIRJBJNEQ) {
    if (!R[INS.a].is_pair() || ((INS.x & 2) && R[INS.a].bits() == ci->anchor)) [[unlikely]]
      goto unpair_jb;
    unpair_borrowed(R, INS.a, INS.b, INS.x & 2);
    {
      const Instr& j = *pc++;
      if (differ(R[j.a], R[j.b])) JUMP(j.c);
    }
    NEXT();
  }
  CASE(UNPAIRJB) {
  unpair_jb:
    if (!R[INS.a].is_pair()) [[unlikely]] {
      if (!R[INS.a].is_cons()) {
        JUMP(INS.c);
        NEXT();
      }
      unpair_packed_borrowed(R, *ci, INS);
      NEXT();
    }
    if ((INS.x & 2) && walk_own_pair(R, INS.a, INS.b, ci->anchor)) NEXT();
    unpair_borrowed(R, INS.a, INS.b, INS.x & 2);
    NEXT();
  }
  CASE(TAIL) {
    tail_of(R, INS.a, INS.b, INS.x & 1);
    NEXT();
  }
  CASE(TAILUNPAIRJ) {
    // R(b), R(b+1) = the parts of the pair in R(a)'s tail, counted before
    // R(a) (which may be R(b)) lets go of the tuple; else the TAIL alone,
    // and the UNPAIRJ word after it runs (and fails).
    const auto* p = R[INS.a].as<rt::Pair>();
    if (!p->tail.is_pair()) {  // (a packed string too: the UNPAIRJ expands it)
      tail_of(R, INS.a, INS.b, INS.x & 1);
      NEXT();
    }
    const auto* q = p->tail.as<rt::Pair>();
    const uint64_t h = Value::retain_bits(q->head.bits()), t = Value::retain_bits(q->tail.bits());
    if ((INS.x & 1) && INS.a != INS.b) R[INS.a].put_bits(Value::empty_bits());
    R[INS.b].put_bits(h);
    R[INS.b + 1].put_bits(t);
    ++pc;  // past the UNPAIRJ
    NEXT();
  }
  CASE(LETFAIL) { runtime_error(LOC(), "LET mismatch: the value does not match the pattern"); }

  // ---------------------------------------------------------------- calls
  CASE(CALLL) {
    // Argument x-1 is a borrowed word, uncounted (MOVEL). A callee entered
    // directly whose value code begins by borrowing that very parameter
    // takes it as it is, past its BORROW and anchored on nothing: the
    // caller's anchor holds it until the call returns. Anything else, or a
    // push that could fail (a safe point due, no room), counts it first and
    // goes on as CALL.
    {
      const uint32_t lent = INS.x - 1u;
      const uint64_t fb = INS.c ? P->globals[INS.c - 1].cell->load(std::memory_order_acquire) : R[INS.a].bits();
      if (fb && enters_directly(fb, INS.b)) {
        const LambdaCode& code = code_of_word(fb);
        const Proto* callee = &code.proto;
        const Instr& first = callee->code[callee->entry_value];
        const uint32_t nb = ci->base + INS.a + 1;
        // PUSH's work, its tests made once: no safe point is due (ticks > 1),
        // and the frame fits without growing anything (else the CALL below).
        if (first.op == Op::BORROW && first.b == lent && vm.ticks > 1 && vm.fits_call(size_t(nb) + callee->nregs))
            [[likely]] {
          --vm.ticks;
          if (INS.c) R[INS.a].put_bits(fb);  // a global's object is immortal: no count
          ci->pc = pc;
          CallInfo* c = vm.calls.push_call(callee, nb, Kind::Value, INS.c != 0);
          c->anchor = Value::empty_bits();
          c->keep = Value::empty_bits();
          P = callee;
          R = vm.stack + nb;
          pc = P->code.data() + P->entry_value + 1;
          drop_set(R, P->borrowed & ~(1u << lent));  // as BORROW
          NEXT();
        }
      }
      (void)Value::retain_bits(R[INS.a + 1 + lent].bits());
    }
    goto call;
  }
  CASE(CALL) {
  call:
    if (INS.c) {  // the callee is a global
      const GlobalRef& g = P->globals[INS.c - 1];
      const uint64_t bits = g.cell->load(std::memory_order_acquire);
      if (!bits) [[unlikely]]
        undefined_global(cx.rt.globals().name(g.slot), cx, LOC());
      R[INS.a].put_bits(bits);  // a global's object is immortal: no count
    }
    const Value& fn = R[INS.a];
    if (!enters_directly(fn.bits(), INS.b)) [[unlikely]] {
      if (!is_humus(fn)) {
        slow_to(vm, INS.a, call_foreign(fn, R + INS.a + 1, INS.b, cx, LOC()));
        RELOAD();
        for (uint32_t i = 1; i <= INS.b; ++i) R[INS.a + i] = Value();
        NEXT();
      }
      const LambdaCode& code = code_of(fn);
      if (code.factory_for(INS.b)) {
        R[INS.a] = code.make_from_arguments(*fn.as<rt::Closure>(), R + INS.a + 1);
        NEXT();
      }
      const uint32_t n = code.proto.arity;
      vm.ensure(size_t(ci->base) + INS.a + 1 + std::max<uint32_t>(INS.b, n));
      R = vm.stack + ci->base;
      if (!adapt(R + INS.a + 1, INS.b, n)) {
        for (uint32_t i = 0, m = std::max<uint32_t>(INS.b, n); i < m; ++i) R[INS.a + 1 + i] = Value();
        R[INS.a] = Value::undefined();  // the argument does not match the parameter
        NEXT();
      }
    }
    // A global's function is immortal: the frame borrows it.
    const LambdaCode& code = code_of(R[INS.a]);
    PUSH(&code.proto, code.proto.entry_value, Kind::Value, INS.c != 0, false, rt::SourceLoc{}, code.loc);
    NEXT();
  }
  // A tail call's callee, as a word: global G(c-1)'s or R(a)'s.
#define TAIL_CALLEE()                                              \
  do {                                                             \
    if (INS.c) {                                                   \
      const GlobalRef& g = P->globals[INS.c - 1];                  \
      fbits = g.cell->load(std::memory_order_acquire);             \
      if (!fbits) [[unlikely]]                                     \
        undefined_global(cx.rt.globals().name(g.slot), cx, LOC()); \
    } else {                                                       \
      fbits = R[INS.a].bits();                                     \
    }                                                              \
  } while (0)
  // A call of the running function itself: the arguments become the
  // parameters (those written in place already are) and the body starts
  // again in the same frame. What else the frame holds stays for the next
  // turn to overwrite (drop_plan.cpp), or, for TAILCALLD, is released.
#define SELF_TAIL_CALL(release_rest)                                               \
  do {                                                                             \
    if (INS.x != (1u << INS.b) - 1) [[unlikely]] /* not every argument in place */ \
      for (uint32_t i = 0; i < INS.b; ++i)                                         \
        if (!((INS.x >> i) & 1)) R[i] = std::move(R[INS.a + 1 + i]);               \
    if (!INS.c) R[INS.a] = Value();                                                \
    if (release_rest) drop_after_tail_call(R, *pc, INS.b, P->nregs);               \
    pc = P->code.data() + P->loop_entry;                                           \
  } while (0)

  // A TAILCALL that may call the running function with every argument in
  // place (superinstructions.cpp): the global (G(c-1), whose cell is
  // P->self_cell) is compared with the function below R(0), and nothing
  // else is checked or moved.
  CASE(TAILSELF) {
  tail_self:
    SAFE_POINT();
    if (P->self_cell->load(std::memory_order_acquire) == R[-1].bits()) [[likely]] {
      pc = P->code.data() + P->loop_entry;
      NEXT();
    }
    goto tail_call;
  }
  CASE(TAILSELFD) {
    SAFE_POINT();
    if (P->self_cell->load(std::memory_order_acquire) == R[-1].bits()) [[likely]] {
      drop_after_tail_call(R, *pc, INS.b, P->nregs);
      pc = P->code.data() + P->loop_entry;
      NEXT();
    }
    goto tail_call_d;
  }
  CASE(TAILCALLD) {
    SAFE_POINT();
  tail_call_d:
    TAIL_CALLEE();
    if (fbits == R[-1].bits() && INS.b == P->arity) [[likely]] {
      SELF_TAIL_CALL(true);
      NEXT();
    }
    goto tail_call_other;
  }
  CASE(TAILCALL) {
    SAFE_POINT();
  tail_call:
    TAIL_CALLEE();
    if (fbits == R[-1].bits() && INS.b == P->arity) [[likely]] {
      SELF_TAIL_CALL(false);
      NEXT();
    }
  tail_call_other:
    if (enters_directly(fbits, INS.b)) [[likely]] {
      // Another function of the same arity, straight: it goes below R(0)
      // (a global's uncounted, being immortal), its arguments into R(0 ..)
      // (those not there already), and what else the frame held is released.
      const Proto* callee = &code_of_word(fbits).proto;
      vm.ensure(size_t(ci->base) + callee->nregs);
      R = vm.stack + ci->base;
      if (P->borrowed) [[unlikely]] {
        lend_borrowed(R, P->borrowed, INS.x, INS.b);
        release_anchor(*ci);
      }
      const uint64_t old_f = R[-1].leak_bits();
      if (INS.c) {
        R[-1].put_bits(fbits);
      } else {
        R[-1].put_bits(R[INS.a].leak_bits());
      }
      if (!ci->f_borrowed) release_word(old_f);
      ci->f_borrowed = INS.c != 0;
      for (uint32_t i = 0; i < INS.b; ++i)
        if (!((INS.x >> i) & 1)) R[i].put_bits(R[INS.a + 1 + i].leak_bits());
      drop_after_tail_call(R, *pc, INS.b, P->nregs);  // the arguments' registers: moved from
      ci->proto = P = callee;
      pc = P->code.data() + P->entry_value;
      NEXT();
    }
    if (INS.c) R[INS.a] = Value::from_immortal_bits(fbits);
    const Value& fn = R[INS.a];
    const bool humus = is_humus(fn);
    const uint32_t n = humus ? code_of(fn).proto.arity : 0;
    // Not a direct call (a built-in, a factory, a tuple to make or take
    // apart): the call as written, every argument in R(a+1 ..).
    for (uint32_t i = 0; i < INS.b; ++i)
      if ((INS.x >> i) & 1) R[INS.a + 1 + i] = ((P->borrowed >> i) & 1) ? Value(R[i]) : std::move(R[i]);
    if (P->borrowed) [[unlikely]] {  // what follows releases the frame as counted
      forget_borrowed(R, P->borrowed);
      release_anchor(*ci);
    }
    if (humus) {
      const LambdaCode& code = code_of(fn);
      const Proto* callee = &code.proto;
      if (code.factory_for(INS.b)) {
        result = code.make_from_arguments(*fn.as<rt::Closure>(), R + INS.a + 1);
        goto do_return;
      }
      vm.ensure(size_t(ci->base) + std::max<size_t>(size_t(INS.a) + 1 + std::max<uint32_t>(INS.b, n), callee->nregs));
      R = vm.stack + ci->base;
      if (INS.b != n && !adapt(R + INS.a + 1, INS.b, n)) {
        result = Value::undefined();
        goto do_return;
      }
      // The callee replaces this frame: it goes below R(0), its arguments
      // into R(0..n); what else the frame held is released.
      replace_frame(R, *ci, INS.a, n, *pc, P->nregs);
      ci->proto = P = callee;
      pc = P->code.data() + P->entry_value;
      NEXT();
    }
    result = call_foreign(fn, R + INS.a + 1, INS.b, cx, LOC());
    RELOAD();
    goto do_return;
  }
  CASE(CALLST) {
    const Value& fn = R[INS.a];
    const bool keep = (INS.x & 1) && ci->has_site;
    if (is_humus(fn)) [[likely]] {
      const LambdaCode& code = code_of(fn);
      const Proto* callee = &code.proto;
      if (INS.b != callee->arity) {
        vm.ensure(size_t(ci->base) + INS.a + 1 + std::max<uint32_t>(INS.b, callee->arity));
        R = vm.stack + ci->base;
        if (!adapt(R + INS.a + 1, INS.b, callee->arity)) {
          for (uint32_t i = 0, n = std::max<uint32_t>(INS.b, callee->arity); i < n; ++i) R[INS.a + 1 + i] = Value();
          R[INS.a] = Value();
          NEXT();
        }
      }
      const rt::SourceLoc site = keep ? ci->site : LOC();
      PUSH(callee, callee->entry_stmt, Kind::Stmt, false, true, site, code.loc);
      NEXT();
    }
    slow_to(vm, INS.a, call_foreign(fn, R + INS.a + 1, INS.b, cx, LOC()));
    RELOAD();
    for (uint32_t i = 1; i <= INS.b; ++i) R[INS.a + i] = Value();
    goto do_exec;
  }
  // A statement's loop: the call of a global with every argument in place
  // (compile_calls.cpp). When the global holds the running function, what
  // else the frame holds is released and its statement code starts again.
  CASE(TAILSELFST) {
    SAFE_POINT();
    {
      const GlobalRef& g = P->globals[INS.c - 1];
      const uint64_t f = g.cell->load(std::memory_order_acquire);
      if (f == R[-1].bits()) [[likely]] {
        if (!((INS.x & 1) && ci->has_site)) {
          ci->site = LOC();
          ci->has_site = true;
        }
        drop_after_tail_call(R, *pc, INS.b, P->nregs);
        ci->kind = Kind::Stmt;  // from a behavior's code too, as TAILCALLST
        pc = P->code.data() + P->entry_stmt;
        NEXT();
      }
      // Another function (the name defined again): the callee and its
      // arguments where TAILCALLST takes them.
      if (!f) [[unlikely]]
        undefined_global(cx.rt.globals().name(g.slot), cx, LOC());
      R[INS.a] = Value::from_immortal_bits(f);
      for (uint32_t i = 0; i < INS.b; ++i) R[INS.a + 1 + i] = std::move(R[i]);
    }
    goto tail_call_st;
  }
  CASE(TAILCALLST) {
    SAFE_POINT();
  tail_call_st:
    const Value& fn = R[INS.a];
    if (is_humus(fn)) [[likely]] {
      const Proto* callee = &code_of(fn).proto;
      const uint32_t n = callee->arity;
      vm.ensure(size_t(ci->base) + std::max<size_t>(size_t(INS.a) + 1 + std::max<uint32_t>(INS.b, n), callee->nregs));
      R = vm.stack + ci->base;
      if (INS.b != n && !adapt(R + INS.a + 1, INS.b, n)) goto do_end;
      if (!((INS.x & 1) && ci->has_site)) {
        ci->site = LOC();
        ci->has_site = true;
      }
      replace_frame(R, *ci, INS.a, n, *pc, P->nregs);
      ci->kind = Kind::Stmt;
      ci->proto = P = callee;
      pc = P->code.data() + P->entry_stmt;
      NEXT();
    }
    slow_to(vm, INS.a, call_foreign(fn, R + INS.a + 1, INS.b, cx, LOC()));
    RELOAD();
    for (uint32_t i = 1; i <= INS.b; ++i) R[INS.a + i] = Value();
    drops = kDropAll;
    drops_x = 0;
    goto do_tailexec;
  }
  CASE(BECOMEF) {
    const Value& fn = R[INS.a];
    if (is_humus(fn)) {
      const LambdaCode& code = code_of(fn);
      if (code.factory_for(INS.b) && code.factory_sources.size() <= rt::Effects::kPendingMax) {
        if (!cx.self) runtime_error(LOC(), "BECOME can only be used inside an actor's behavior, not at top level");
        rt::Effects& fx = cx.fx;
        if (fx.has_become()) runtime_error(LOC(), "a second BECOME in one message-event");
        code.capture_arguments(*fn.as<rt::Closure>(), R + INS.a + 1, fx.pending);
        fx.pending_count = uint32_t(code.factory_sources.size());
        fx.pending_code = code.factory;
        R[INS.a] = Value();
        pc += 2;  // past the CALL and the BECOME that would make the closure
      }
    }
    NEXT();
  }

  // ----------------------------------------------------------------- ends
  CASE(RETB) {
    // x=1: the result is a part of the borrowed list, counted before the anchor lets go.
    const uint64_t v = (INS.x & 1) ? Value::retain_bits(R[INS.a].bits()) : 0;
    forget_borrowed(R, P->borrowed);
    if (INS.x & 1) R[INS.a].put_bits(v);
    release_anchor(*ci);
    goto do_ret;
  }
  CASE(RETKB) {
    forget_borrowed(R, P->borrowed);
    release_anchor(*ci);
    goto do_retk;
  }
  CASE(RET) {
  do_ret:
    const uint64_t v = R[INS.a].leak_bits();
    drop_named(R, INS.x, INS.b, P->nregs);
    if (ci->entry || ci->hole) [[unlikely]] {
      result.put_bits(v);
      goto do_return_dropped;
    }
    // The common case, straight: the value goes to the caller's R(a), where
    // the callee was, without passing through `result`.
    const uint64_t f = R[-1].leak_bits();
    R[-1].put_bits(v);
    if (!ci->f_borrowed) release_word(f);
    vm.calls.pop_back();
    RELOAD();
    pc = ci->pc;
    NEXT();
  }
  CASE(RETK) {
  do_retk:
    drop_named(R, INS.x, INS.c, P->nregs);
    if (ci->entry || ci->hole) [[unlikely]] {
      result = K[INS.b];
      goto do_return_dropped;
    }
    // As RET's: the constant goes to the caller's R(a) straight.
    const uint64_t f = R[-1].leak_bits();
    R[-1].put_bits(Value::retain_bits(K[INS.b].bits()));
    if (!ci->f_borrowed) release_word(f);
    vm.calls.pop_back();
    RELOAD();
    pc = ci->pc;
    NEXT();
  }
  CASE(END) {
    drop_named(R, INS.x, INS.b, P->nregs);
    goto do_end_dropped;
  }
  CASE(UNHANDLED) {
    drop_named(R, INS.x, INS.b, P->nregs);
    drop_function(R, *ci);
    vm.calls.pop_back();
    CHECK_EMPTY();
    return Outcome::Unhandled;  // only a behavior's code, always an entry frame
  }
  CASE(NOMATCH) {
    if (!cx.no_match.line) {  // the first in the event is the one reported
      cx.no_match = LOC();
      cx.no_match_if = INS.x & 1;
    }
    NEXT();
  }
  CASE(EXEC) { goto do_exec; }
  CASE(TAILEXEC) {
    drops = INS.b;
    drops_x = INS.x;
    goto do_tailexec;
  }
  CASE(BEHEXEC) {
    const Value& v = R[INS.a];
    if (v.is_undefined()) {
      drop_named(R, INS.x, INS.b, P->nregs);
      drop_function(R, *ci);
      vm.calls.pop_back();
      CHECK_EMPTY();
      return Outcome::Unhandled;
    }
    if (!v.is_block()) [[unlikely]]
      runtime_error(LOC(), "a behavior must give a block or ?, not " + describe(v, cx) +
                               (v.is_function() ? "; a function that makes a behavior needs its arguments first: "
                                                  "CREATE x WITH f(...), not CREATE x WITH f"
                                                : ""));
    drops = INS.b;
    drops_x = INS.x;
    goto do_tailexec;
  }
  CASE(DROPS) { std::abort(); }  // data after a tail call, never run

  // -------------------------------------------------------------- effects
  CASE(SEND) {
    const Value& target = R[INS.b];
    if (!target.is_actor()) [[unlikely]] {
      cx.rt.drop_send(LOC(), target, R[INS.a], cx);
      if (INS.x & 1) R[INS.a] = Value();  // moved into the SEND: the frame's ends do not release it
      NEXT();
    }
    cx.fx.send(target.as<rt::Actor>(), (INS.x & 1) ? std::move(R[INS.a]) : Value(R[INS.a]));
    NEXT();
  }
  CASE(AFTER) {
    const Value& delay = R[INS.a];
    // The bound is a small integer's (2^62 - 1 ms, about 146 million years),
    // and the message says so: a bigger integer is not "< 0" (issue 34).
    if (!delay.is_small() || delay.small_value() < 0) [[unlikely]]
      runtime_error(LOC(),
                    "AFTER needs a delay in milliseconds (an integer from 0 to 2^62 - 1), not " + describe(delay, cx));
    if (!R[INS.c].is_actor()) [[unlikely]] {
      cx.rt.drop_send(LOC(), R[INS.c], R[INS.b], cx);
      NEXT();
    }
    cx.fx.delay(delay.small_value(), R[INS.c], R[INS.b]);
    NEXT();
  }
  CASE(BECOME) {
    if (!cx.self) [[unlikely]]
      runtime_error(LOC(), "BECOME can only be used inside an actor's behavior, not at top level");
    if (!R[INS.a].is_function()) [[unlikely]]
      runtime_error(LOC(), "BECOME needs a function as the behavior, not " + describe(R[INS.a], cx));
    if (cx.fx.has_become()) [[unlikely]]
      runtime_error(LOC(), "a second BECOME in one message-event");
    cx.fx.become = std::move(R[INS.a]);
    NEXT();
  }
  CASE(THROW) {
    Value v = R[INS.a];
    std::string text = "THROW " + describe(v, cx);
    throw rt::EventError{LOC(), std::move(text), std::move(v)};
  }

#if !HUMUS_THREADED
}  // switch
}  // for
#endif

// ------------------------------------------------ shared ends of frames
do_return :  // a value frame ends with `result`
             drop_regs(R, 0, P->nregs);
do_return_dropped : drop_function(R, *ci);
if (ci->hole) [[unlikely]] {  // the value ends the tuple HOLE made, which is the frame's value
  ci->hole->put_bits(result.leak_bits());
  ci->hole = nullptr;
  result.put_bits(ci->root);
}
if (ci->entry) {
  vm.calls.pop_back();
  CHECK_EMPTY();
  return Outcome::Value;
}
(R - 1)->put_bits(result.leak_bits());  // the caller's R(a), where the callee was (now empty)
vm.calls.pop_back();
RELOAD();
pc = ci->pc;
NEXT();

do_end :  // statement code ends
          drop_regs(R, 0, P->nregs);
do_end_dropped : drop_function(R, *ci);
if (ci->entry) {
  vm.calls.pop_back();
  CHECK_EMPTY();
  return Outcome::Done;
}
vm.calls.pop_back();
RELOAD();
pc = ci->pc;
NEXT();

do_exec :  // run R(a) as a statement, then go on here
{
  const Value& v = R[INS.a];
  if (v.is_block()) {
    const auto* block = static_cast<const BlockCodeImpl*>(v.as<rt::BlockValue>()->code);
    const Proto* bp = &block->proto;
    PUSH(bp, bp->entry_stmt, Kind::Stmt, false, false, rt::SourceLoc{}, block->loc);
    NEXT();
  }
  if (!v.is_undefined()) [[unlikely]]
    ignored_value(v, cx, (INS.x & 1) && ci->has_site ? ci->site : LOC());
  NEXT();
}

do_tailexec :  // run R(a) as a statement in place of this frame
{
  SAFE_POINT();
  const Value& v = R[INS.a];
  if (v.is_block()) {
    const Proto* bp = &static_cast<const BlockCodeImpl*>(v.as<rt::BlockValue>()->code)->proto;
    vm.ensure(size_t(ci->base) + std::max(bp->nregs, P->nregs));
    R = vm.stack + ci->base;
    if (ci->f_borrowed) {
      R[-1].leak_bits();
      ci->f_borrowed = false;
    }
    R[-1] = std::move(R[INS.a]);
    drop_named(R, drops_x, drops, P->nregs);
    ci->kind = Kind::Stmt;
    ci->proto = P = bp;
    pc = P->code.data() + P->entry_stmt;
    NEXT();
  }
  if (!v.is_undefined()) [[unlikely]]
    ignored_value(v, cx, (INS.x & 1) && ci->has_site ? ci->site : LOC());
  drop_named(R, drops_x, drops, P->nregs);
  goto do_end_dropped;
}

#undef RELOAD
#undef LOC
#undef INS
#undef JUMP
#undef INTACT
#undef INTACT_NOW
#undef SAFE_POINT
#undef NEXT
#undef CASE
#undef PUSH
#undef ci
#undef K
#undef TAIL_CALLEE
#undef SELF_TAIL_CALL
#undef SMALL
#undef WORD
#undef OPERANDS
#undef BUILTIN_SLOW
#undef TAGGED
#undef TAGGED_K
#undef TAGGED_JNEQ
#undef TEST
#undef JCOMPARE
}

}  // namespace humus::engine::vm
