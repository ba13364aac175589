#include "runtime/stack_guard.hpp"

#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "runtime/errors.hpp"

namespace humus::rt {

void stack_guard_init(std::size_t size) {
  // Leave a margin for the frames between two checks, for the runtime's own
  // C++ frames (printing, reporting) and for sanitizer-inflated frames.
  std::size_t margin = size / 8;
  if (margin < (std::size_t(1) << 20)) margin = std::size_t(1) << 20;
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  tl_stack_limit = size > margin ? here - (size - margin) : here;
}

void stack_guard_init_current() {
  pthread_attr_t attr;
  void* low = nullptr;
  std::size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
  }
  const char* here = static_cast<const char*>(__builtin_frame_address(0));
  std::size_t margin = std::max(size / 8, std::size_t(1) << 20);
  // Unknown bounds, or no room above the margin: every check fails (the
  // caller's recursion goes elsewhere, see Dispatcher's guest turns).
  const char* limit = static_cast<const char*>(low) + margin;
  tl_stack_limit = low && limit < here ? limit : here + 1;
}

void recursion_too_deep(const SourceLoc& loc) { runtime_error(loc, "recursion too deep"); }

void runtime_error(const SourceLoc& loc, std::string message) { throw EventError{loc, std::move(message), Value()}; }

std::size_t thread_stack_size(std::size_t threads) {
  std::size_t n = kThreadStackSize;
  struct rlimit as {};
  // A quarter of a limited address space for the stacks of all the threads
  // (and the top-level one), the rest for the heap.
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    n = std::min<std::size_t>(n, as.rlim_cur / 4 / (std::max<std::size_t>(threads, 1) + 1));
  n = std::max(n, kMinThreadStackSize);
  return n & ~((std::size_t(1) << 16) - 1);  // whole 64 KB
}

namespace {

// What a new thread runs, and the size its stack got.
struct Start {
  std::function<void()> fn;
  std::size_t stack = 0;
};

// Starts `entry(arg)` with `stack` bytes of stack, halving it while the
// system says there is no room for it; `stack` is left at the size used
// (the thread reads it: it is written before the thread starts).
pthread_t start_thread(void* (*entry)(void*), void* arg, std::size_t& stack) {
  std::size_t size = stack;
  for (;;) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size);
    stack = size;
    pthread_t thread;
    int rc = pthread_create(&thread, &attr, entry, arg);
    pthread_attr_destroy(&attr);
    if (rc == 0) return thread;
    if ((rc == EAGAIN || rc == ENOMEM) && size / 2 >= kMinThreadStackSize) {
      size /= 2;
      continue;
    }
    throw ThreadStartError("cannot start a thread (" + std::to_string(size >> 20) + " MB stack): " + std::strerror(rc));
  }
}

void* run_owned(void* arg) {
  std::unique_ptr<Start> start(static_cast<Start*>(arg));
  stack_guard_init(start->stack);
  start->fn();
  return nullptr;
}

// run_on_big_stack's thread: the caller waits, and gets the exception back.
struct Job {
  std::size_t stack;
  const std::function<void()>* fn;
  std::exception_ptr error;
};

void* trampoline(void* arg) {
  auto* job = static_cast<Job*>(arg);
  stack_guard_init(job->stack);
  try {
    (*job->fn)();
  } catch (...) {
    job->error = std::current_exception();  // rethrown on the calling thread
  }
  return nullptr;
}

}  // namespace

BigStackThread::BigStackThread(std::function<void()> fn, std::size_t stack_size) {
  auto start = std::make_unique<Start>(Start{std::move(fn), stack_size ? stack_size : thread_stack_size(1)});
  handle_ = start_thread(run_owned, start.get(), start->stack);
  start.release();  // the thread owns it now
  joinable_ = true;
}

BigStackThread::~BigStackThread() { join(); }

bool BigStackThread::is_current() const { return joinable_ && pthread_equal(pthread_t(handle_), pthread_self()); }

void BigStackThread::join() {
  if (joinable_) pthread_join(pthread_t(handle_), nullptr);
  joinable_ = false;
}

void run_on_big_stack(const std::function<void()>& fn) {
  Job job{thread_stack_size(std::max(1u, std::thread::hardware_concurrency())), &fn, nullptr};
  pthread_t t = start_thread(trampoline, &job, job.stack);
  pthread_join(t, nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace humus::rt
