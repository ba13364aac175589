// This test program's operator new: malloc, except that, when armed, the Nth
// allocation made inside an event's code or while compiling (the regions
// runtime/memory_meter.hpp calls capped) throws std::bad_alloc, as a
// `ulimit -v` would make it. GMP allocates through operator new, so its
// allocations fail too.
#include "failing_new.hpp"

#include <cstdlib>
#include <new>

#include "runtime/memory_meter.hpp"

namespace humus::test {
std::atomic<long> alloc_countdown{-1};
}

namespace {

void* allocate(std::size_t n) {
  using humus::test::alloc_countdown;
  if (humus::rt::memory::detail::tl_capped && alloc_countdown.load(std::memory_order_relaxed) >= 0 &&
      alloc_countdown.fetch_sub(1, std::memory_order_relaxed) == 0)
    throw std::bad_alloc();
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}

void* allocate_or_null(std::size_t n) noexcept {
  try {
    return allocate(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

}  // namespace

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
