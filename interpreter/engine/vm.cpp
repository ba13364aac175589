// The VM: one loop over the instructions of opcodes.hpp.
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
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

#include "grammar/suggest.hpp"
#include "runtime/actor.hpp"
#include "runtime/builtins/functions.hpp"
#include "runtime/equality.hpp"
#include "runtime/integer.hpp"
#include "runtime/memory_meter.hpp"
#include "runtime/packed.hpp"
#include "runtime/print.hpp"
#include "runtime/runtime.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::interp {

using rt::runtime_error;

std::string describe(const Value& v, const rt::Context& cx) { return cx.rt.shown(v); }

Value tuple_of(Value* vals, uint32_t n) {
  Value acc = std::move(vals[n - 1]);
  for (uint32_t i = n - 1; i-- > 0;) acc = rt::make_pair(std::move(vals[i]), std::move(acc));
  return acc;
}

namespace {

// The equality of section 2 with the common cases inline: equal words
// (same small integer, symbol, constant or object) are equal; a word that is
// not an object equals nothing else (integers are normalised, so a small
// integer never equals a big one).
inline bool equal_values(const Value& a, const Value& b) {
  if (a.same(b)) return true;
  if (!a.is_object() || !b.is_object()) return false;
  return rt::equal(a, b);
}

// The deepest a chain of Humus calls (that are not tail calls) may go, and
// the most registers all of them may use: beyond either, "recursion too deep".
constexpr size_t kMaxDepth = size_t(1) << 20;
constexpr size_t kMaxStack = size_t(1) << 26;

// Every so many calls and tail calls (the only ways code can run for long:
// Humus loops are tail calls), the running event asks the runtime whether
// the run was interrupted or stopped, and counts the calls against
// --max-steps (Runtime::safe_point): one decrement per call.
constexpr uint32_t kSafePointTicks = 1 << 16;

// What ends a frame, and what the end gives the C++ caller of an entry frame.
enum class Kind : uint8_t { Value, Stmt };
enum class Outcome : uint8_t { Value, Done, Unhandled };

struct CallInfo {
  const Proto* proto;
  const Instr* pc;  // where this frame goes on (saved while a callee runs)
  uint32_t base;    // register 0; the function is at base - 1
  Kind kind;
  bool entry;       // a C++ caller waits for this frame to end
  bool f_borrowed;  // R[-1] holds the function without a count of its own
  bool has_site;
  rt::SourceLoc site;  // the statement a statement call came from (errors about its result)
};

// The frames, innermost last: a plain array (pushed and popped on every
// call), grown by doubling.
class CallStack {
 public:
  CallStack() = default;
  CallStack(const CallStack&) = delete;
  CallStack& operator=(const CallStack&) = delete;
  ~CallStack() { std::free(first_); }
  bool empty() const { return top_ == first_; }
  size_t size() const { return size_t(top_ - first_); }
  CallInfo& back() { return top_[-1]; }
  const CallInfo& back() const { return top_[-1]; }
  CallInfo& operator[](size_t i) { return first_[i]; }
  // Whether a frame can be pushed without growing (room_for_call).
  bool has_room() const { return top_ != end_; }
  CallInfo* push(const CallInfo& c) {
    if (top_ == end_) [[unlikely]]
      grow();
    *top_ = c;
    return top_++;
  }
  // A frame for a call (no site), its fields written one by one; there is
  // room (VmState::room_for_call said so).
  CallInfo* push_call(const Proto* proto, uint32_t base, Kind kind, bool f_borrowed) {
    CallInfo* c = top_++;
    c->proto = proto;
    c->base = base;
    c->kind = kind;
    c->entry = false;
    c->f_borrowed = f_borrowed;
    c->has_site = false;
    return c;
  }
  void pop_back() { --top_; }
  void resize(size_t n) { top_ = first_ + n; }
  [[gnu::noinline]] void grow() {
    const size_t n = size(), cap = std::max<size_t>(64, 2 * size_t(end_ - first_));
    auto* p = static_cast<CallInfo*>(std::realloc(static_cast<void*>(first_), cap * sizeof(CallInfo)));
    if (!p) throw std::bad_alloc();
    first_ = p;
    top_ = p + n;
    end_ = p + cap;
  }

 private:
  CallInfo* first_ = nullptr;
  CallInfo* top_ = nullptr;
  CallInfo* end_ = nullptr;
};
static_assert(std::is_trivially_copyable_v<CallInfo>);

struct VmState final : rt::EngineState {
  VmState() = default;
  ~VmState() override {
    for (size_t i = 0; i < cap; ++i) stack[i] = Value();
    std::free(stack);
  }
  VmState(const VmState&) = delete;
  VmState& operator=(const VmState&) = delete;

  // The first free register above every frame's window.
  uint32_t top() const { return calls.empty() ? 0 : calls.back().base + calls.back().proto->nregs; }

  // Room for registers [0, n). New registers are empty.
  void ensure(size_t n) {
#if HUMUS_CHECKS
    high = std::max(high, n);
#endif
    if (n <= cap) [[likely]]
      return;
    grow(n);
  }
  // The same for a call's frame: false when it would go too deep.
  bool room_for_call(size_t n) {
#if HUMUS_CHECKS
    high = std::max(high, n);
#endif
    if (n <= cap && calls.has_room()) [[likely]]
      return true;
    if (calls.size() >= kMaxDepth || n > kMaxStack) return false;
    if (!calls.has_room()) calls.grow();
    if (n > cap) grow(n);
    return true;
  }
  [[gnu::noinline]] void grow(size_t n) {
    if (n > kMaxStack) throw std::bad_alloc();  // reported by the caller as "recursion too deep"
    size_t new_cap = std::max<size_t>({n + 64, cap * 2, 256});
    // Values are one word each and trivially relocatable: moved bitwise.
    auto* p = static_cast<Value*>(std::realloc(static_cast<void*>(stack), new_cap * sizeof(Value)));
    if (!p) throw std::bad_alloc();
    rt::construct_empty(p + cap, uint32_t(new_cap - cap));
    stack = p;
    cap = new_cap;
  }

  Value* stack = nullptr;
  size_t cap = 0;
  // Calls and tail calls until the next safe point. In memory rather than
  // a local of run(): a register held across the dispatch loop cost up to
  // 17% on call-heavy benchmarks (sortedlist), a decrement in L1 about nothing.
  uint32_t ticks = kSafePointTicks;
  CallStack calls;
#if HUMUS_CHECKS
  size_t high = 0;  // registers used since the stack was last seen empty
#endif
};

// Checked builds: once the last frame has ended, every register must be
// empty again; a value left means a drop bound missed it (compile/drop_plan.cpp).
void check_empty_stack([[maybe_unused]] VmState& vm) {
#if HUMUS_CHECKS
  if (!vm.calls.empty()) return;
  for (size_t i = 0; i < std::min(vm.high, vm.cap); ++i)
    if (!vm.stack[i].empty()) {
      std::fprintf(stderr, "humus: internal error: register %zu still holds a value after the last frame ended\n", i);
      std::abort();
    }
  vm.high = 0;
#endif
}

VmState& vm_of(rt::Context& cx) {
  if (!cx.engine) [[unlikely]]
    cx.engine = std::make_unique<VmState>();
  return static_cast<VmState&>(*cx.engine);
}

// Applying a value that is not a function yields ? (LANGUAGE.md section 3,
// as in humus_js and uFork); -W and --trace report where.
[[gnu::noinline]] Value not_a_function(const Value& fn, rt::Context& cx, const rt::SourceLoc& loc) {
  if (cx.rt.warnings_on())
    cx.rt.report_warning(loc, "cannot apply " + describe(fn, cx) + ": it is not a function (the result is ?)");
  return Value::undefined();
}

// A statement's value that is neither a block nor ? does nothing (LANGUAGE.md
// section 7); -W and --trace report it.
[[gnu::noinline]] void ignored_value(const Value& v, rt::Context& cx, const rt::SourceLoc& loc) {
  if (!v.is_undefined() && cx.rt.warnings_on())
    cx.rt.report_warning(loc, "this statement's value is not a block, so it does nothing: " + describe(v, cx));
}

// A runtime error raised without a location (a built-in's "integer too
// large"): reported at the instruction that called the built-in.
[[noreturn, gnu::noinline]] void rethrow_at(rt::EventError& e, const rt::SourceLoc& loc) {
  if (!e.loc.file) e.loc = loc;
  throw;
}

[[noreturn, gnu::noinline]] void too_deep(const rt::SourceLoc& loc) { rt::recursion_too_deep(loc); }

[[gnu::noinline]] void safe_point(rt::Context& cx, const rt::SourceLoc& loc) {
  cx.rt.safe_point(cx, kSafePointTicks, loc);
}

bool is_humus(const Value& fn) { return fn.is(rt::ObjKind::Closure) && fn.as<rt::Closure>()->code->tail_callable; }
const LambdaCode& code_of(const Value& fn) { return static_cast<const LambdaCode&>(*fn.as<rt::Closure>()->code); }
// Whether a call with n arguments enters the function `w` straight away
// (compiled Humus of that arity, not a factory: FunctionCode::direct_arity).
bool enters_directly(uint64_t w, uint32_t n) {
  const auto* o = reinterpret_cast<const rt::Object*>(w);
  return (w & 3) == 0 && o->kind == rt::ObjKind::Closure && static_cast<const rt::Closure*>(o)->code->direct_arity == n;
}
const LambdaCode& code_of_word(uint64_t w) {
  return static_cast<const LambdaCode&>(*reinterpret_cast<const rt::Closure*>(w)->code);
}

// The captures of the function or block below a frame.
const Value* captures_of(const Value* R) {
  const rt::Object* f = R[-1].object();
  if (f->kind == rt::ObjKind::Closure) [[likely]]
    return static_cast<const rt::Closure*>(f)->captures();
  return static_cast<const rt::BlockValue*>(f)->captures();
}

// Makes the n values at args[0..n) what a parameter of `arity` takes: one
// value (several become their tuple) or `arity` values (a tuple taken
// apart: arity-1 pairs, the last element the rest). False when they do not
// fit; args[0..max(n, arity)) must be registers (they are left valid).
bool adapt(Value* args, uint32_t n, uint32_t arity) {
  if (n >= 2) {
    Value t = tuple_of(args, n);
    args[0] = std::move(t);
  }
  if (arity == 1) return true;
  Value v = std::move(args[0]);
  for (uint32_t i = 0; i + 1 < arity; ++i) {
    if (v.is_cons() && !v.is_pair()) v = rt::expand(v);  // a packed value is taken apart as its pairs
    if (!v.is_pair()) return false;
    args[i] = rt::head(v);
    Value rest = rt::tail(v);
    v = std::move(rest);
  }
  args[arity - 1] = std::move(v);
  return true;
}

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

// fn applied to args (taken over), when fn is not compiled Humus code: a
// built-in, or a host's function (which may enter the VM again, so nothing
// it is given lives on the VM stack).
Value call_foreign(const Value& fn, Value* args, uint32_t n, rt::Context& cx, const rt::SourceLoc& loc) {
  if (fn.is(rt::ObjKind::Native)) {
    const auto* nat = fn.as<rt::Native>();
    try {
      if (n == 2 && nat->fn2) return nat->fn2(args[0], args[1]);
      return nat->fn(n >= 2 ? tuple_of(args, n) : std::move(args[0]));
    } catch (rt::EventError& e) {
      rethrow_at(e, loc);
    }
  }
  if (fn.is(rt::ObjKind::Closure)) {
    Value keep = fn;
    Value arg = n >= 2 ? tuple_of(args, n) : std::move(args[0]);
    const auto* c = keep.as<rt::Closure>();
    return c->code->apply(*c, arg, cx);
  }
  return not_a_function(fn, cx, loc);
}

// The built-in functions by instruction, for when their globals are bound
// to something else (then the global's value is called) and for what the
// fast paths leave (big integers, wrong types).
struct Builtins {
  const rt::Native* by_op[256] = {};
  Builtins() {
    static const std::pair<Op, const char*> kNames[] = {{Op::ADD, "add"},
                                                        {Op::SUB, "sub"},
                                                        {Op::MUL, "mul"},
                                                        {Op::DIV, "div"},
                                                        {Op::MOD, "mod"},
                                                        {Op::LESS, "less"},
                                                        {Op::LESSEQ, "less_equal"},
                                                        {Op::GREATER, "greater"},
                                                        {Op::GREATEREQ, "greater_equal"},
                                                        {Op::COMPARE, "compare"},
                                                        {Op::EQ, "eq"},
                                                        {Op::ADDI, "add"},
                                                        {Op::SUBI, "sub"},
                                                        {Op::JNLESS, "less"},
                                                        {Op::JNLESSEQ, "less_equal"},
                                                        {Op::JNGREATER, "greater"},
                                                        {Op::JNGREATEREQ, "greater_equal"}};
    for (auto [op, name] : kNames)
      for (const rt::Native* n : rt::builtin_functions())
        if (std::string_view(n->name) == name) by_op[size_t(op)] = n;
  }
};
const Builtins& builtins() {
  static const Builtins b;
  return b;
}

// A global read before anything bound it, with the closest bound names
// (a late-bound name of a script, or the REPL's; scripts are checked first).
[[noreturn, gnu::noinline]] void undefined_global(const std::string& name, rt::Context& cx, const rt::SourceLoc& loc) {
  std::vector<std::string> candidates;
  for (auto& [bound, value] : cx.rt.globals().bound())
    if (!rt::Globals::is_internal(bound)) candidates.push_back(std::move(bound));
  runtime_error(loc, "'" + name + "' is not defined" + parse::did_you_mean(parse::closest_names(name, candidates)));
}

// op(x, y) when the built-in's global has been bound again: whatever it holds now.
[[gnu::noinline]] Value call_rebound(Op op, const Value& x, const Value& y, rt::Context& cx, const rt::SourceLoc& loc) {
  const char* name = builtins().by_op[size_t(op)]->name;
  auto slot = cx.rt.globals().find(name);
  Value fn = slot ? cx.rt.globals().get(*slot) : Value();
  if (fn.empty()) undefined_global(name, cx, loc);
  Value args[2] = {x, y};
  return call_value(fn, args, 2, cx, loc);
}

Outcome run(VmState& vm, rt::Context& cx, Value& result);

// Releases the registers of every frame from `entry` up, and pops them (a
// failure: the C++ exception goes on to the caller of the entry).
void unwind(VmState& vm, size_t entry) {
  size_t end = vm.calls[entry].base;
  for (size_t i = entry; i < vm.calls.size(); ++i)
    end = std::max<size_t>(end, vm.calls[i].base + vm.calls[i].proto->nregs);
  const CallInfo& e = vm.calls[entry];
  if (e.f_borrowed) vm.stack[e.base - 1].leak_bits();
  for (size_t i = e.base - 1; i < end && i < vm.cap; ++i) vm.stack[i] = Value();
  vm.calls.resize(entry);
}

// A runtime error raised in standard-library code (a failed check of the
// `testing` module) is the caller's mistake: it is reported at the innermost
// call from the program's own code, and says where the library raised it.
void blame_caller(VmState& vm, size_t entry, const rt::SourceLoc& entered_from, rt::EventError& e) {
  const size_t n = vm.calls.size();
  if (n <= entry || !e.loc.file) return;
  if (!e.in_library) {
    const Proto* raiser = vm.calls.back().proto;
    if (!raiser->library || raiser->file != e.loc.file) return;
    e.in_library = true;
  }
  std::vector<const std::string*> library{e.loc.file};
  for (size_t i = entry; i < n; ++i)
    if (vm.calls[i].proto->library) library.push_back(vm.calls[i].proto->file);
  auto blame = [&](const rt::SourceLoc& at) {
    if (!at.file || std::find(library.begin(), library.end(), at.file) != library.end()) return false;
    e.message += " (raised at " + e.loc.file_name() + ":" + std::to_string(e.loc.line) + ":" +
                 std::to_string(e.loc.column) + ")";
    e.loc = at;
    e.in_library = false;
    return true;
  };
  for (size_t i = n; i-- > entry;) {
    const CallInfo& c = vm.calls[i];
    if (i + 1 < n && blame(c.proto->loc(c.pc - 1))) return;  // a caller: at its call
    if (c.has_site && blame(c.site)) return;                 // a statement call: where it came from
  }
  blame(entered_from);  // the C++ caller's location (a statement's block run by the interpreter)
}

// Runs code from C++: a frame for `proto` at the top of the stack, with the
// function or block `fn` (kept alive by the caller, so the frame holds it
// uncounted; may be null at top level) below it and the n argument values
// (taken over) in place.
Outcome enter(rt::Context& cx, const Proto& proto, uint32_t entry, Kind kind, const rt::Object* fn, Value* args,
              uint32_t n, Value& result, const rt::SourceLoc& loc) {
  rt::check_stack(loc);
  VmState& vm = vm_of(cx);
  if (vm.calls.size() >= kMaxDepth) too_deep(loc);
  const uint32_t base = vm.top() + 1;
  const size_t entry_index = vm.calls.size();
  try {
    vm.ensure(size_t(base) + std::max({proto.nregs, n, proto.arity}));
  } catch (const rt::memory::MemoryCapReached&) {
    throw;
  } catch (const std::bad_alloc&) {
    too_deep(loc);
  }
  Value* R = vm.stack + base;
  R[-1] = Value::from_immortal_bits(reinterpret_cast<uint64_t>(fn));  // uncounted (f_borrowed)
  for (uint32_t i = 0; i < n; ++i) R[i] = std::move(args[i]);
  vm.calls.push({&proto, proto.code.data() + entry, base, kind, true, fn != nullptr, false, {}});
  try {
    if (n && n != proto.arity && !adapt(R, n, proto.arity)) {
      unwind(vm, entry_index);
      return kind == Kind::Value ? (result = Value::undefined(), Outcome::Value) : Outcome::Unhandled;
    }
    return run(vm, cx, result);
  } catch (rt::EventError& e) {
    blame_caller(vm, entry_index, loc, e);
    unwind(vm, entry_index);
    throw;
  } catch (...) {
    unwind(vm, entry_index);
    throw;
  }
}

}  // namespace

// ------------------------------------------------------------- the loop

namespace {

#if defined(__GNUC__)
#define HUMUS_THREADED 1
#endif

// Releases R(from) .. R(end-1), end the lesser of a drop bound (proto.hpp)
// and the frame's size; the registers above are known to be empty.
[[gnu::always_inline]] inline void drop_regs(Value* R, uint32_t from, uint32_t end) {
  for (uint32_t i = from; i < end; ++i) R[i].put_bits(Value::empty_bits());
}

// Releases what a frame's end finds in its registers: the drop field
// `field` of an instruction whose flags are `x` (proto.hpp), either a set of
// registers or a bound.
[[gnu::always_inline]] inline void drop_set(Value* R, uint32_t set) {
  for (uint32_t m = set; m; m &= m - 1) R[__builtin_ctz(m)].put_bits(Value::empty_bits());
}
[[gnu::always_inline]] inline void drop_named(Value* R, uint8_t x, uint32_t field, uint32_t nregs) {
  if (x & kDropMask) {
    drop_set(R, field);
  } else {
    drop_regs(R, 0, std::min(field, nregs));
  }
}

// The same after a tail call has written its n arguments to R(0) .. R(n-1):
// the DROPS word after it names what else the frame held.
[[gnu::always_inline]] inline void drop_after_tail_call(Value* R, const Instr& drops, uint32_t n, uint32_t nregs) {
  if (drops.x & kDropMask) {
    drop_set(R, drops.a & ~((1u << n) - 1));
  } else {
    drop_regs(R, n, std::min<uint32_t>(drops.a, nregs));
  }
}

// Releases the reference a word holds, if it is an object's.
[[gnu::always_inline]] inline void release_word(uint64_t w) {
  if ((w & 3) == 0) reinterpret_cast<rt::Object*>(w)->release();
}

// Releases the function below a frame (unless borrowed).
[[gnu::always_inline]] inline void drop_function(Value* R, const CallInfo& ci) {
  if (ci.f_borrowed)
    R[-1].leak_bits();
  else
    R[-1] = Value();
}

// A member of the running function's recursive group: it has the same
// captures as the running one, so it is made from them.
Value make_sibling(const LambdaCode* code, Value* R) {
  const auto* self = R[-1].as<rt::Closure>();
  rt::Closure* c = rt::Closure::make(code, self->count);
  Value v = Value::adopt(c);
  for (uint32_t i = 0; i < self->count; ++i) c->captures()[i] = self->captures()[i];
  return v;
}

// Handlers of the loop below may not hold objects with destructors across
// their dispatch (a computed goto leaves a scope without running them):
// what needs one is done in a function of its own, like these.

// Writes a register (without Value's check for assigning a value to itself:
// `v` is taken first, so even that works).
inline void set(Value& r, Value&& v) {
  Value taken(std::move(v));
  r.~Value();
  new (&r) Value(std::move(taken));
}

// A Value given up by a register (x: move) or copied from it.
inline Value take(Value& r, bool move) { return move ? std::move(r) : Value(r); }

// R(b) = head of R(a), R(b+1) = its tail. Both halves are counted first:
// writing R(b) or R(b+1) may drop the pair itself (b == a, or a register
// still holding it from an earlier turn of a loop).
[[gnu::always_inline]] inline void unpair(Value* R, uint32_t a, uint32_t b) {
  const auto* p = R[a].as<rt::Pair>();
  const uint64_t h = Value::retain_bits(p->head.bits());
  const uint64_t t = Value::retain_bits(p->tail.bits());
  R[b].put_bits(h);
  R[b + 1].put_bits(t);
}

// The same when R(a) is not read again: it is emptied, and a pair nobody
// else holds gives up its halves (no counting) and is freed at once.
[[gnu::always_inline]] inline void unpair_last(Value* R, uint32_t a, uint32_t b) {
  auto* p = R[a].as<rt::Pair>();
  if (p->refs.load(std::memory_order_acquire) == 1 && !p->immortal()) {
    const uint64_t h = p->head.leak_bits(), t = p->tail.leak_bits();
    R[a].leak_bits();
    R[b].put_bits(h);
    R[b + 1].put_bits(t);
    rt::free_emptied_pair(p);
    return;
  }
  unpair(R, a, b);
  R[a].put_bits(Value::empty_bits());
}

// R(b) = head of R(a), and the tail replaces the pair in R(a) (UNPAIR x=3:
// the pair is not read again). A pair nobody else holds gives up its
// halves and is freed at once; a shared one is released once both halves
// are counted (writing R(b) cannot free it: R(a) still holds it).
[[gnu::always_inline]] inline void unpair_in_place(Value* R, uint32_t a, uint32_t b) {
  auto* p = R[a].as<rt::Pair>();
  if (p->refs.load(std::memory_order_acquire) == 1 && !p->immortal()) {
    const uint64_t h = p->head.leak_bits(), t = p->tail.leak_bits();
    R[a].leak_bits();
    R[b].put_bits(h);
    R[a].put_bits(t);
    rt::free_emptied_pair(p);
    return;
  }
  const uint64_t h = Value::retain_bits(p->head.bits());
  const uint64_t t = Value::retain_bits(p->tail.bits());
  R[b].put_bits(h);
  R[a].put_bits(t);
}

// R(b) = the tail of the pair in R(a), whose head is a tag (an immediate:
// JNTAG tested it). `last`: R(a) is not read again, so a pair nobody else
// holds gives up its tail and is freed; b may be a.
[[gnu::always_inline]] inline void tail_of(Value* R, uint32_t a, uint32_t b, bool last) {
  auto* p = R[a].as<rt::Pair>();
  if (last && p->refs.load(std::memory_order_acquire) == 1 && !p->immortal()) {
    const uint64_t t = p->tail.leak_bits();
    p->head.leak_bits();  // the tag: nothing to release
    R[a].leak_bits();
    R[b].put_bits(t);
    rt::free_emptied_pair(p);
    return;
  }
  R[b].put_bits(Value::retain_bits(p->tail.bits()));  // when b == a, releases the pair after
  if (last && a != b) R[a].put_bits(Value::empty_bits());
}

// A result computed by code that may have entered the VM again (so the
// stack may have moved): stored through the frame, not a stale pointer.
inline void slow_to(VmState& vm, uint32_t a, Value v) { vm.stack[vm.calls.back().base + a] = std::move(v); }

// A captured value, from the frame that makes a closure or block.
Value capture(const CaptureSource& s, Value* R) {
  switch (s.kind) {
    case CaptureSource::Kind::Reg:
      return R[s.index];
    case CaptureSource::Kind::Capture:
      return captures_of(R)[s.index];
    case CaptureSource::Kind::SelfFn:
      return R[-1];
    case CaptureSource::Kind::Sibling:
      break;
  }
  return make_sibling(s.sibling, R);
}

Value make_closure(const ClosurePlan& plan, Value* R) {
  rt::Closure* c = rt::Closure::make(plan.code, uint32_t(plan.sources.size()));
  Value v = Value::adopt(c);
  for (size_t i = 0; i < plan.sources.size(); ++i) c->captures()[i] = capture(plan.sources[i], R);
  return v;
}

Value make_block(const BlockValuePlan& plan, Value* R) {
  rt::BlockValue* b = rt::BlockValue::make(plan.code, uint32_t(plan.sources.size()));
  Value v = Value::adopt(b);
  for (size_t i = 0; i < plan.sources.size(); ++i) b->captures()[i] = capture(plan.sources[i], R);
  return v;
}

// GROUP: the closures of a recursive group, all made before any register
// is written (a member may capture another's register).
void make_group(const GroupPlan& plan, Value* R) {
  const auto n = uint32_t(plan.sources.size());
  std::vector<Value> made;
  made.reserve(plan.members.size());
  for (const auto& [code, reg] : plan.members) {
    rt::Closure* c = rt::Closure::make(code, n);
    made.push_back(Value::adopt(c));
    for (uint32_t i = 0; i < n; ++i) {
      const CaptureSource& s = plan.sources[i];
      switch (s.kind) {
        case CaptureSource::Kind::Reg:
          c->captures()[i] = R[s.index];
          break;
        case CaptureSource::Kind::Capture:
          c->captures()[i] = captures_of(R)[s.index];
          break;
        case CaptureSource::Kind::SelfFn:
          c->captures()[i] = R[-1];
          break;
        case CaptureSource::Kind::Sibling:
          break;  // members reach each other as siblings, never as captures
      }
    }
  }
  for (size_t m = 0; m < made.size(); ++m) R[plan.members[m].second] = std::move(made[m]);
}

// A built-in by instruction, on values the fast path does not take.
Value builtin_value(Op op, const Value& x, const Value& y) {
  switch (op) {
    case Op::ADD:
    case Op::ADDI:
      return rt::int_add(x, y);
    case Op::SUB:
    case Op::SUBI:
      return rt::int_sub(x, y);
    case Op::MUL:
      return rt::int_mul(x, y);
    case Op::DIV:
      return rt::int_div(x, y);
    case Op::MOD:
      return rt::int_mod(x, y);
    case Op::EQ:
      return Value::boolean(equal_values(x, y));
    default:
      return builtins().by_op[size_t(op)]->fn2(x, y);
  }
}

// A built-in on values the fast path does not take (not small integers, a
// result out of the small range) or whose global is bound to something else.
[[gnu::noinline]] Value builtin_slow(Op op, const Value& x, const Value& y, bool intact, rt::Context& cx,
                                     const rt::SourceLoc& loc) {
  if (!intact) return call_rebound(op, x, y, cx, loc);
  try {
    return builtin_value(op, x, y);
  } catch (rt::EventError& e) {
    rethrow_at(e, loc);
  }
}

// The Euclidean remainder of two small integers, b != 0: never negative.
[[gnu::always_inline]] inline int64_t mod_small(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return r >= 0 ? r : r + (b > 0 ? b : -b);
}
// mod(n, 2^k) on n's tagged word 2n+1: n's low k bits, tag bit kept (MODP).
[[gnu::always_inline]] inline uint64_t mod_pow2_word(uint64_t w, uint32_t k) {
  return w & ((((uint64_t(1) << k) - 1) << 1) | 1);
}

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
#define INTACT()                                                \
  (!rt::Globals::any_rebound.load(std::memory_order_relaxed) || \
   cx.rt.globals().builtins_intact().load(std::memory_order_relaxed))
#define SAFE_POINT()                    \
  do {                                  \
    if (--vm.ticks == 0) [[unlikely]] { \
      vm.ticks = kSafePointTicks;       \
      safe_point(cx, LOC());            \
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
  const bool fast = (x & y & 1) && INTACT()
#define BUILTIN_SLOW(name)                                                                                        \
  do {                                                                                                            \
    slow_to(vm, INS.a, builtin_slow(Op::name, R[INS.b], (INS.x & 1) ? K[INS.c] : R[INS.c], INTACT(), cx, LOC())); \
    RELOAD();                                                                                                     \
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
      R[INS.a].put_bits(uint64_t(r));                                  \
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
#define TAGGED_K(name, builtin)                                                                                      \
  CASE(name) {                                                                                                       \
    const uint64_t x = R[INS.b].bits();                                                                              \
    int64_t r;                                                                                                       \
    if ((x & 1) && INTACT() && !builtin(int64_t(x), (int64_t(INS.c) - 32768) * 2, &r)) [[likely]] {                  \
      R[INS.a].put_bits(uint64_t(r));                                                                                \
      NEXT();                                                                                                        \
    }                                                                                                                \
    slow_to(vm, INS.a, builtin_slow(Op::name, R[INS.b], Value::small(int64_t(INS.c) - 32768), INTACT(), cx, LOC())); \
    RELOAD();                                                                                                        \
    NEXT();                                                                                                          \
  }
  // div and mod by a constant 2^k (k in c). Euclidean division by a
  // positive divisor is floor division, so on the tagged word 2n+1 an
  // arithmetic shift by k with the tag bit set again is 2*floor(n/2^k)+1,
  // and the remainder is n's low k bits (never negative): a mask.
  CASE(DIVP) {
    const uint64_t x = R[INS.b].bits();
    if ((x & 1) && INTACT()) [[likely]] {
      R[INS.a].put_bits(uint64_t(int64_t(x) >> INS.c) | 1);
      NEXT();
    }
    slow_to(vm, INS.a, builtin_slow(Op::DIV, R[INS.b], Value::small(int64_t(1) << INS.c), INTACT(), cx, LOC()));
    RELOAD();
    NEXT();
  }
  CASE(MODP) {
    const uint64_t x = R[INS.b].bits();
    if ((x & 1) && INTACT()) [[likely]] {
      R[INS.a].put_bits(mod_pow2_word(x, INS.c));
      NEXT();
    }
    slow_to(vm, INS.a, builtin_slow(Op::MOD, R[INS.b], Value::small(int64_t(1) << INS.c), INTACT(), cx, LOC()));
    RELOAD();
    NEXT();
  }
  TAGGED_K(ADDI, __builtin_add_overflow)
  TAGGED_K(SUBI, __builtin_sub_overflow)
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
    if ((x & 1) && INTACT()) [[likely]] {
      const uint64_t r = mod_pow2_word(x, INS.c);
      R[INS.a].put_bits(r);
      const Instr& j = *pc++;
      if (r != K[j.b].bits()) JUMP(j.c);
      NEXT();
    }
    slow_to(vm, INS.a, builtin_slow(Op::MOD, R[INS.b], Value::small(int64_t(1) << INS.c), INTACT(), cx, LOC()));
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
    const uint64_t x = R[INS.a].bits(), y = R[INS.b].bits();
    if (x != y && ((x & 3) || (y & 3) || !rt::equal(R[INS.a], R[INS.b]))) JUMP(INS.c);
    NEXT();
  }
  CASE(JNEQK) {
    if (!equal_values(R[INS.a], K[INS.b])) JUMP(INS.c);
    NEXT();
  }
#define JCOMPARE(name, test)                                                                                  \
  CASE(name) {                                                                                                \
    const uint64_t x = R[INS.a].bits();                                                                       \
    const uint64_t y = ((INS.x & 1) ? K[INS.b] : R[INS.b]).bits();                                            \
    if ((x & y & 1) && INTACT()) [[likely]] {                                                                 \
      if (!(int64_t(x) test int64_t(y))) JUMP(INS.c);                                                         \
    } else {                                                                                                  \
      const bool holds =                                                                                      \
          builtin_slow(Op::name, R[INS.a], (INS.x & 1) ? K[INS.b] : R[INS.b], INTACT(), cx, LOC()).is_true(); \
      RELOAD();                                                                                               \
      if (!holds) JUMP(INS.c);                                                                                \
    }                                                                                                         \
    NEXT();                                                                                                   \
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
  CASE(CALL) {
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
    pc = P->code.data() + P->entry_value;                                          \
  } while (0)

  CASE(TAILCALLD) {
    SAFE_POINT();
    TAIL_CALLEE();
    if (fbits == R[-1].bits() && INS.b == P->arity) [[likely]] {
      SELF_TAIL_CALL(true);
      NEXT();
    }
    goto tail_call_other;
  }
  CASE(TAILCALL) {
    SAFE_POINT();
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
      if ((INS.x >> i) & 1) R[INS.a + 1 + i] = std::move(R[i]);
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
      if (ci->f_borrowed) {
        R[-1].leak_bits();
        ci->f_borrowed = false;
      }
      R[-1] = std::move(R[INS.a]);
      for (uint32_t i = 0; i < n; ++i) R[i] = std::move(R[INS.a + 1 + i]);
      drop_after_tail_call(R, *pc, n, P->nregs);  // the arguments' registers: moved from
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
  CASE(TAILCALLST) {
    SAFE_POINT();
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
      if (ci->f_borrowed) {
        R[-1].leak_bits();
        ci->f_borrowed = false;
      }
      R[-1] = std::move(R[INS.a]);
      for (uint32_t i = 0; i < n; ++i) R[i] = std::move(R[INS.a + 1 + i]);
      drop_after_tail_call(R, *pc, n, P->nregs);  // the arguments' registers: moved from
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
  CASE(RET) {
    const uint64_t v = R[INS.a].leak_bits();
    drop_named(R, INS.x, INS.b, P->nregs);
    if (ci->entry) [[unlikely]] {
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
    result = K[INS.b];
    drop_named(R, INS.x, INS.c, P->nregs);
    goto do_return_dropped;
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
      runtime_error(LOC(), "AFTER needs a delay in milliseconds (an integer from 0 to 2^62 - 1), not " +
                               describe(delay, cx));
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

}  // namespace

// ---------------------------------------------------------- entry points

Value call_value(const Value& fn, Value* args, uint32_t n, rt::Context& cx, const rt::SourceLoc& loc) {
  if (!is_humus(fn)) return call_foreign(fn, args, n, cx, loc);
  const LambdaCode& code = code_of(fn);
  if (code.factory_for(n)) return code.make_from_arguments(*fn.as<rt::Closure>(), args);
  Value result;
  enter(cx, code.proto, code.proto.entry_value, Kind::Value, fn.object(), args, n, result, code.loc);
  return result;
}

Value apply_function(const Value& fn, const Value& arg, rt::Context& cx, const rt::SourceLoc& loc) {
  Value a = arg;
  return call_value(fn, &a, 1, cx, loc);
}

Value LambdaCode::apply(const rt::Closure& self, const Value& arg, rt::Context& cx) const {
  Value a = arg;
  if (factory_for(1)) return make_from_arguments(self, &a);
  Value result;
  enter(cx, proto, proto.entry_value, Kind::Value, &self, &a, 1, result, loc);
  return result;
}

bool LambdaCode::run_behavior(const rt::Closure& self, const Value& msg, rt::Context& cx) const {
  // The actor holds its behavior for the whole event: the frame borrows it.
  Value m = msg;
  Value result;
  return enter(cx, proto, proto.entry_behavior, Kind::Stmt, &self, &m, 1, result, loc) != Outcome::Unhandled;
}

void run_statement_value(Value v, const rt::SourceLoc& loc, rt::Context& cx) {
  if (v.is_block()) {
    const Proto& p = static_cast<const BlockCodeImpl*>(v.as<rt::BlockValue>()->code)->proto;
    Value result;
    enter(cx, p, p.entry_stmt, Kind::Stmt, v.object(), nullptr, 0, result, loc);
    return;
  }
  ignored_value(v, cx, loc);
}

Value run_top(const Proto& proto, uint32_t entry, rt::Context& cx) {
  Value result;
  enter(cx, proto, entry, entry == proto.entry_value ? Kind::Value : Kind::Stmt, nullptr, nullptr, 0, result,
        rt::SourceLoc{proto.file, 0, 0});
  return result;
}

Value function_value(const LambdaCode& code) { return Value::adopt(rt::Closure::make(&code, 0)); }

// ------------------------------------------------------------- factories

void LambdaCode::capture_arguments(const rt::Closure& self, Value* args, Value* out) const {
  for (const FactorySource& src : factory_sources) {
    switch (src.kind) {
      case FactorySource::Kind::Arg:
        *out++ = std::move(args[src.index]);  // each argument is captured once at most
        break;
      case FactorySource::Kind::Capture:
        *out++ = self.captures()[src.index];
        break;
      case FactorySource::Kind::SelfFn:
        *out++ = Value::share(const_cast<rt::Closure*>(&self));
        break;
    }
  }
  for (uint32_t i = 0; i < proto.arity; ++i) args[i] = Value();
}

Value LambdaCode::make_from_arguments(const rt::Closure& self, Value* args) const {
  rt::Closure* c = rt::Closure::make(factory, uint32_t(factory_sources.size()));
  Value result = Value::adopt(c);
  capture_arguments(self, args, c->captures());
  return result;
}

}  // namespace humus::interp
