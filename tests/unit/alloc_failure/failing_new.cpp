// This test program's operator new: malloc, except that, when armed, the Nth
// allocation made inside an event's code or while compiling (the regions
// runtime/memory_meter.hpp calls capped) throws std::bad_alloc, as a
// `ulimit -v` would make it, and with a burst so do the next ones anywhere.
// GMP allocates through operator new, so its allocations fail too.
#include "failing_new.hpp"

#include <cstdlib>
#include <new>

#include "runtime/memory_meter.hpp"

namespace humus::test {
std::atomic<long> alloc_countdown{-1};
std::atomic<long> alloc_burst{0};
std::atomic<long> alloc_burst_after{0};
}  // namespace humus::test

namespace {

std::atomic<long> passing{0};  // allocations that go through before the burst
std::atomic<long> failing{0};  // allocations of the burst still to fail

bool must_fail() {
  using humus::test::alloc_countdown;
  if (passing.load(std::memory_order_relaxed) > 0 && passing.fetch_sub(1, std::memory_order_relaxed) > 0) return false;
  if (failing.load(std::memory_order_relaxed) > 0 && failing.fetch_sub(1, std::memory_order_relaxed) > 0) return true;
  if (humus::rt::memory::detail::tl_capped && alloc_countdown.load(std::memory_order_relaxed) >= 0 &&
      alloc_countdown.fetch_sub(1, std::memory_order_relaxed) == 0) {
    failing.store(humus::test::alloc_burst.load(std::memory_order_relaxed), std::memory_order_relaxed);
    passing.store(humus::test::alloc_burst_after.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return true;
  }
  return false;
}

void* allocate(std::size_t n, std::size_t align = 0) {
  if (must_fail()) throw std::bad_alloc();
  if (n == 0) n = 1;
  void* p = align ? std::aligned_alloc(align, (n + align - 1) / align * align) : std::malloc(n);
  if (!p) throw std::bad_alloc();
  return p;
}

void* allocate_or_null(std::size_t n, std::size_t align = 0) noexcept {
  try {
    return allocate(n, align);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

}  // namespace

void humus::test::stop_failing() {
  alloc_countdown = -1;
  failing = 0;
  passing = 0;
}

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate_or_null(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate_or_null(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate_or_null(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate_or_null(n, std::size_t(a));
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
