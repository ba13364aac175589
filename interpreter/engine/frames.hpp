// The VM's state in each context: the stack of registers, the frames
// (CallInfo) over it, and the limits beyond which a call is "recursion too deep".
//
// Registers live on a stack of Values per context; a frame is a window of it
// that starts at `base`, with the running function (or block value) just
// below it, in R[-1], where its captures are read. Frames are CallInfos in
// an array beside the stack, innermost last. The stack may move when it
// grows (every handler of vm.cpp that can grow it reloads `R`).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

#include "interpreter/engine/proto.hpp"
#include "runtime/context.hpp"
#include "runtime/source_loc.hpp"
#include "runtime/value.hpp"

namespace humus::engine::vm {

// The deepest a chain of Humus calls (that are not tail calls) may go, and
// the most registers all of them may use: beyond either, "recursion too deep".
inline constexpr size_t kMaxDepth = size_t(1) << 20;
inline constexpr size_t kMaxStack = size_t(1) << 26;

// Every so many calls and tail calls (the only ways code can run for long:
// Humus loops are tail calls), the running event asks the runtime whether
// the run was interrupted or stopped, and counts the calls against
// --max-steps (Runtime::safe_point): one decrement per call.
#if defined(HUMUS_FUZZ_BUILD)
// The fuzz targets bound each input's time at the safe points: sixteen times
// as often, or an input's loop overran its few milliseconds many times over.
inline constexpr uint32_t kSafePointTicks = 1 << 12;
#else
inline constexpr uint32_t kSafePointTicks = 1 << 16;
#endif

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
  // A frame running value code with borrowed registers (compile/borrow_plan.hpp):
  // the call's one count of the borrowed list (BORROW), and what taking a
  // packed value apart made (a list of them, or empty). Set by BORROW, not
  // by a push: read only in such frames.
  uint64_t anchor;
  uint64_t keep;
  // A value tail call's pending tuple (tail modulo cons, HOLE): `root`, the
  // tuple this frame's value ends (counted), and `hole`, its last tail,
  // where that value goes when the frame returns. Null: nothing pending.
  rt::Value* hole = nullptr;
  uint64_t root = 0;
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
    c->hole = nullptr;
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
  // The same for a call's frame: false when it would go too deep. (The
  // test inlined into every call: a profile-guided build left it a call.)
  [[gnu::always_inline]] bool room_for_call(size_t n) {
    if (fits_call(n)) [[likely]]
      return true;
    return grow_for_call(n);
  }
  // Whether a call's frame fits as things are, nothing grown.
  [[gnu::always_inline]] bool fits_call(size_t n) {
#if HUMUS_CHECKS
    high = std::max(high, n);
#endif
    return n <= cap && calls.has_room();
  }
  [[gnu::noinline]] bool grow_for_call(size_t n) {
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
inline void check_empty_stack([[maybe_unused]] VmState& vm) {
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

// The context's VM state, made on first use.
inline VmState& vm_of(rt::Context& cx) {
  if (!cx.engine) [[unlikely]]
    cx.engine = std::make_unique<VmState>();
  return static_cast<VmState&>(*cx.engine);
}

// What a call finds in a callee's register: whether it is compiled Humus
// code, and its code.
inline bool is_humus(const Value& fn) {
  return fn.is(rt::ObjKind::Closure) && fn.as<rt::Closure>()->code->tail_callable;
}
inline const LambdaCode& code_of(const Value& fn) {
  return static_cast<const LambdaCode&>(*fn.as<rt::Closure>()->code);
}
// Whether a call with n arguments enters the function `w` straight away
// (compiled Humus of that arity, not a factory: FunctionCode::direct_arity).
inline bool enters_directly(uint64_t w, uint32_t n) {
  const auto* o = reinterpret_cast<const rt::Object*>(w);
  return (w & 3) == 0 && o->kind == rt::ObjKind::Closure && static_cast<const rt::Closure*>(o)->code->direct_arity == n;
}
inline const LambdaCode& code_of_word(uint64_t w) {
  return static_cast<const LambdaCode&>(*reinterpret_cast<const rt::Closure*>(w)->code);
}

// The captures of the function or block below a frame.
inline const Value* captures_of(const Value* R) {
  const rt::Object* f = R[-1].object();
  if (f->kind == rt::ObjKind::Closure) [[likely]]
    return static_cast<const rt::Closure*>(f)->captures();
  return static_cast<const rt::BlockValue*>(f)->captures();
}

}  // namespace humus::engine::vm
