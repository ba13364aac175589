// Keeps deep recursion in Humus functions from overflowing the C++ stack.
//
// Each thread that runs Humus code records how far down its stack may grow;
// function application compares the current frame address against it and
// fails the event with "recursion too deep" instead of crashing. A frame
// address comparison is one load and one compare: cheap enough for every call.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>

#include "runtime/source_loc.hpp"

namespace humus::rt {

inline thread_local const char* tl_stack_limit = nullptr;

// Call at the top of a thread whose stack is `size` bytes.
void stack_guard_init(std::size_t size);
// The same for a thread the runtime did not make (a library's), from the
// bounds the system gives for its stack.
void stack_guard_init_current();

[[noreturn]] void recursion_too_deep(const SourceLoc& loc);

inline void check_stack(const SourceLoc& loc) {
  if (static_cast<const char*>(__builtin_frame_address(0)) < tl_stack_limit) [[unlikely]]
    recursion_too_deep(loc);
}

// The stack size of the threads the runtime makes (workers, the interpreter
// thread). Reserved address space, touched only as deep as recursion goes.
// AddressSanitizer cannot unwind an exception across a stack larger than
// 64 MB (__asan_handle_no_return), so its builds get a smaller one; and
// ThreadSanitizer keeps at most 65536 frames of a stack, so its get less.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr std::size_t kThreadStackSize = std::size_t(48) << 20;
#elif defined(__SANITIZE_THREAD__)
inline constexpr std::size_t kThreadStackSize = std::size_t(8) << 20;
#else
inline constexpr std::size_t kThreadStackSize = std::size_t(256) << 20;
#endif
// The smallest stack worth starting a thread with: the guard keeps a 1 MB
// margin, and recursion needs some room above it.
inline constexpr std::size_t kMinThreadStackSize = std::size_t(4) << 20;

// The stack each of `threads` threads gets: kThreadStackSize, or less when
// the address space is limited (ulimit -v): all the stacks together take at
// most a quarter of it, so that they leave room for the heap. At least
// kMinThreadStackSize.
std::size_t thread_stack_size(std::size_t threads);

// A thread could not be started, even with a small stack: the system's
// limits (address space, threads per user) leave no room. Its message says
// which thread and why, e.g. "cannot start a thread (4 MB stack): Resource
// temporarily unavailable".
struct ThreadStartError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A joinable thread with a `stack_size` stack (thread_stack_size(1) if 0) and
// the guard set up (std::thread cannot choose its stack size). When the
// system refuses, it tries again with half the stack, down to
// kMinThreadStackSize, then throws ThreadStartError.
class BigStackThread {
 public:
  explicit BigStackThread(std::function<void()> fn, std::size_t stack_size = 0);
  BigStackThread(BigStackThread&& o) noexcept : handle_(o.handle_), joinable_(o.joinable_) { o.joinable_ = false; }
  BigStackThread(const BigStackThread&) = delete;
  BigStackThread& operator=(const BigStackThread&) = delete;
  ~BigStackThread();  // joins
  void join();
  bool is_current() const;  // whether the calling thread is this one

 private:
  unsigned long handle_ = 0;
  bool joinable_ = false;
};

// Runs `fn` on a new thread with a thread_stack_size(cores) stack, with the guard
// set up, and waits for it. Used to give top-level evaluation the same depth
// as workers. Throws ThreadStartError as BigStackThread does.
void run_on_big_stack(const std::function<void()>& fn);

}  // namespace humus::rt
