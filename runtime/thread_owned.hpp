// Per-thread objects without C++ thread_local destructors.
//
// A thread_local with a destructor registers it with the C library on its
// first use on each thread, and that registration takes memory: glibc ends
// the process ("Fatal glibc error: failed to register TLS destructor: out of
// memory") when it cannot, for instance when the first use comes while an
// out-of-memory error unwinds (issue 34). ThreadOwned<T> makes a thread's T
// with operator new on first use (which fails like any allocation, with
// std::bad_alloc) and deletes it when the thread ends, through a pthread
// key, whose value needs no allocation for the first 32 keys of a process.
#pragma once

#include <pthread.h>

#include <memory>
#include <new>

namespace humus::rt {

template <class T>
class ThreadOwned {
 public:
  ThreadOwned() { made_ = pthread_key_create(&key_, &ThreadOwned::destroy) == 0; }
  ThreadOwned(const ThreadOwned&) = delete;
  ThreadOwned& operator=(const ThreadOwned&) = delete;
  // The calling thread's T, made on its first call (std::bad_alloc if it cannot be).
  T& get() {
    if (T* t = tl_) [[likely]]
      return *t;
    auto t = std::make_unique<T>();
    if (!made_ || pthread_setspecific(key_, t.get()) != 0) throw std::bad_alloc();
    tl_ = t.get();
    return *t.release();
  }

 private:
  static void destroy(void* p) {  // on the ending thread, after its thread_local destructors
    tl_ = nullptr;
    delete static_cast<T*>(p);
  }
  pthread_key_t key_{};
  bool made_ = false;
  static inline thread_local T* tl_ = nullptr;
};

}  // namespace humus::rt
