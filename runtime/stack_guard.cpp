#include "runtime/stack_guard.hpp"

#include <pthread.h>

#include <exception>
#include <memory>
#include <stdexcept>

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

void recursion_too_deep(const SourceLoc& loc) { runtime_error(loc, "recursion too deep"); }

void runtime_error(const SourceLoc& loc, std::string message) {
  throw EventError{loc, std::move(message), Value()};
}

namespace {
struct Job {
  const std::function<void()>* fn;
  std::exception_ptr error;
};

void* trampoline(void* arg) {
  auto* job = static_cast<Job*>(arg);
  stack_guard_init(kThreadStackSize);
  try {
    (*job->fn)();
  } catch (...) {
    job->error = std::current_exception();  // rethrown on the calling thread
  }
  return nullptr;
}
}  // namespace

namespace {
void* run_owned(void* arg) {
  std::unique_ptr<std::function<void()>> fn(static_cast<std::function<void()>*>(arg));
  stack_guard_init(kThreadStackSize);
  (*fn)();
  return nullptr;
}

pthread_t start_big_stack_thread(void* (*entry)(void*), void* arg) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kThreadStackSize);
  pthread_t thread;
  int rc = pthread_create(&thread, &attr, entry, arg);
  pthread_attr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("cannot start a thread");
  return thread;
}
}  // namespace

BigStackThread::BigStackThread(std::function<void()> fn) {
  auto* owned = new std::function<void()>(std::move(fn));
  try {
    handle_ = start_big_stack_thread(run_owned, owned);
  } catch (...) {
    delete owned;
    throw;
  }
  joinable_ = true;
}

BigStackThread::~BigStackThread() { join(); }

void BigStackThread::join() {
  if (joinable_) pthread_join(pthread_t(handle_), nullptr);
  joinable_ = false;
}

void run_on_big_stack(const std::function<void()>& fn) {
  Job job{&fn, nullptr};
  pthread_join(start_big_stack_thread(trampoline, &job), nullptr);
  if (job.error) std::rethrow_exception(job.error);
}

}  // namespace humus::rt
