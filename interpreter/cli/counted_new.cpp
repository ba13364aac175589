// The humus command's operator new and delete: the allocator's (mimalloc's,
// or the sanitizer's malloc) with the bytes counted for --max-memory
// (runtime/memory_meter.hpp). Both sides count the block's usable size, so
// the count stays exact whichever delete frees a block (pairs are freed
// unsized, and mimalloc gives a 24-byte request 32 bytes).
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include "runtime/memory_meter.hpp"

#if __has_include(<mimalloc.h>) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#include <mimalloc.h>
#define HUMUS_ALLOC(n) mi_malloc(n)
#define HUMUS_ALLOC_ALIGNED(n, a) mi_malloc_aligned(n, a)
#define HUMUS_FREE(p) mi_free(p)
#define HUMUS_USABLE(p) mi_usable_size(p)
#define HUMUS_SIZE_CLASSES 1  // a small request's block size depends on its size alone
#else
#define HUMUS_ALLOC(n) std::malloc(n)
#define HUMUS_ALLOC_ALIGNED(n, a) std::aligned_alloc(a, (n + a - 1) / a * a)
#define HUMUS_FREE(p) std::free(p)
#define HUMUS_USABLE(p) malloc_usable_size(p)
#endif

namespace {

namespace memory = humus::rt::memory;

// The block size of each small request, measured once at start: a small
// block comes from a page of blocks of one size, chosen by the request's
// size alone (mimalloc's size classes), so counting it needs
// no look-up of the block on either side (mi_usable_size was 16% of the
// instructions of a compile). Bigger and aligned blocks, and unsized
// deletes, ask the allocator.
constexpr std::size_t kSmall = 1024;
uint16_t small_usable[kSmall + 1];  // 0: not measured, ask the allocator

bool measure_small_sizes() noexcept {
#ifndef HUMUS_SIZE_CLASSES
  return false;  // glibc may hand out a bigger chunk than the size asks for
#else
  for (std::size_t n = 1; n <= kSmall; ++n) {
    void* p = HUMUS_ALLOC(n);
    if (!p) return false;
    small_usable[n] = uint16_t(HUMUS_USABLE(p));
    HUMUS_FREE(p);
  }
  small_usable[0] = small_usable[1];  // a request of 0 bytes is made 1
  return true;
#endif
}

inline std::size_t block_size(void* p, std::size_t n) noexcept {
  if (n <= kSmall && small_usable[n]) return small_usable[n];
  return HUMUS_USABLE(p);
}

// Null when the allocator has no room; `refused` when the cap says no.
void* const refused = reinterpret_cast<void*>(alignof(std::max_align_t));

[[gnu::noinline]] void* over_flush(void* p, std::size_t n) noexcept {
  if (memory::allocated_over_flush(n)) return p;
  memory::freed(n);
  HUMUS_FREE(p);
  return refused;
}

inline void* counted(std::size_t n, std::size_t align = 0) noexcept {
  if (n == 0) n = 1;
  void* p = align ? HUMUS_ALLOC_ALIGNED(n, align) : HUMUS_ALLOC(n);
  if (!p) [[unlikely]]
    return nullptr;
  n = align ? HUMUS_USABLE(p) : block_size(p, n);
  if (!memory::allocated_fast(n)) [[unlikely]]
    return over_flush(p, n);
  return p;
}

[[gnu::noinline]] [[noreturn]] void fail(void* p) {
  if (p == refused) throw memory::MemoryCapReached();
  throw std::bad_alloc();
}

inline void* counted_or_throw(std::size_t n, std::size_t align = 0) {
  void* p = counted(n, align);
  if (p == nullptr || p == refused) [[unlikely]]
    fail(p);
  return p;
}

inline void* counted_or_null(std::size_t n, std::size_t align = 0) noexcept {
  void* p = counted(n, align);
  return p == refused ? nullptr : p;
}

inline void uncounted(void* p) noexcept {
  if (!p) return;
  memory::freed(HUMUS_USABLE(p));
  HUMUS_FREE(p);
}

inline void uncounted(void* p, std::size_t n) noexcept {
  if (!p) return;
  memory::freed(block_size(p, n));
  HUMUS_FREE(p);
}

// Before main: nothing can have been allocated by another new. (A block
// made before the sizes are measured counts its usable size: the same.)
[[maybe_unused]] const bool installed = (memory::set_counting(true), measure_small_sizes(), true);

}  // namespace

void* operator new(std::size_t n) { return counted_or_throw(n); }
void* operator new[](std::size_t n) { return counted_or_throw(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted_or_null(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted_or_null(n); }
void operator delete(void* p) noexcept { uncounted(p); }
void operator delete[](void* p) noexcept { uncounted(p); }
void operator delete(void* p, std::size_t n) noexcept { uncounted(p, n); }
void operator delete[](void* p, std::size_t n) noexcept { uncounted(p, n); }
void operator delete(void* p, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { uncounted(p); }
// The aligned forms too (the actors' 64 KB chunks): counted like the rest,
// and failing with std::bad_alloc, where mimalloc's own would abort the
// process (issue 34).
void* operator new(std::size_t n, std::align_val_t a) { return counted_or_throw(n, std::size_t(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return counted_or_throw(n, std::size_t(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_or_null(n, std::size_t(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return counted_or_null(n, std::size_t(a));
}
void operator delete(void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t) noexcept { uncounted(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { uncounted(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { uncounted(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { uncounted(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { uncounted(p); }
