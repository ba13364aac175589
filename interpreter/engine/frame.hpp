// A frame: the slots of one function application (or one top-level
// statement), plus the closure whose body is running and the event context.
//
// The compiler gives every parameter and every block-local name of a
// function body a slot number, so variables are read by index, never by
// name. Frames live on the C++ stack (alloca): calling a function allocates
// nothing on the heap.
#pragma once

#include <alloca.h>

#include <cstdint>
#include <memory>

#include "runtime/code.hpp"
#include "runtime/context.hpp"

namespace humus::interp {

using rt::Value;

// Filled in when the compiler finishes a function body; shared by the
// function's code and the block literals in it (they run in the same layout).
struct FrameLayout {
  uint32_t slots = 0;
};

struct Frame {
  Value* slots;
  const rt::Closure* closure;  // the running function (captures, self-reference); null at top level
  rt::Context& cx;
};

// Destroys the slots of a stack frame when it goes out of scope.
class SlotGuard {
 public:
  SlotGuard(Value* slots, uint32_t n) : slots_(slots), n_(n) { rt::construct_empty(slots, n); }
  ~SlotGuard() { std::destroy_n(slots_, n_); }
  SlotGuard(const SlotGuard&) = delete;
  SlotGuard& operator=(const SlotGuard&) = delete;

 private:
  Value* slots_;
  uint32_t n_;
};

// The slots of a loop that runs one frame after another (tail calls,
// statement tails): reused while big enough, regrown on the stack of the
// function that owns the loop when a frame needs more (HUMUS_FRAME_FIT).
class ReusedSlots {
 public:
  ReusedSlots() = default;
  ~ReusedSlots() { std::destroy_n(slots_, capacity_); }
  ReusedSlots(const ReusedSlots&) = delete;
  ReusedSlots& operator=(const ReusedSlots&) = delete;

  bool fits(uint32_t n) const { return n <= capacity_; }
  // Switches to `mem`, room for n slots on the caller's stack.
  void adopt(void* mem, uint32_t n) {
    std::destroy_n(slots_, capacity_);
    slots_ = static_cast<Value*>(mem);
    capacity_ = n;
    rt::construct_empty(slots_, n);
  }
  // Empties the slots between two frames.
  void clear() {
    for (uint32_t i = 0; i < capacity_; ++i) slots_[i] = Value();
  }
  Value* get() const { return slots_; }

 private:
  Value* slots_ = nullptr;
  uint32_t capacity_ = 0;
};

}  // namespace humus::interp

// Makes ReusedSlots `rs` hold at least n slots (at least one, so get() is never null).
#define HUMUS_FRAME_FIT(rs, n)                                                               \
  do {                                                                                       \
    const uint32_t fit_n_ = (n) ? (n) : 1;                                                   \
    if (!(rs).fits(fit_n_)) (rs).adopt(alloca(sizeof(::humus::rt::Value) * fit_n_), fit_n_); \
  } while (0)

// Declares Frame `name` with `n` empty slots on the caller's stack. A macro
// because alloca must run in the frame that owns the memory.
#define HUMUS_FRAME(name, n, closure, cx)                                                                       \
  const uint32_t name##_count = (n);                                                                            \
  ::humus::rt::Value* name##_slots =                                                                            \
      static_cast<::humus::rt::Value*>(alloca(sizeof(::humus::rt::Value) * (name##_count ? name##_count : 1))); \
  ::humus::interp::SlotGuard name##_guard(name##_slots, name##_count);                                          \
  ::humus::interp::Frame name { name##_slots, (closure), (cx) }
