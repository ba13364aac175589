#include "runtime/actor_heap.hpp"

#include <bit>
#include <cstdlib>
#include <new>
#include <thread>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HUMUS_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HUMUS_ASAN 1
#endif
#ifdef HUMUS_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace humus::rt {

namespace {
constexpr size_t kChunkBytes = 64 * 1024;  // aligned to its size: a cell finds its chunk by masking
constexpr size_t kCellBytes = sizeof(Actor);
constexpr size_t kHeaderCells = 4;  // the header below fits in 256 bytes
constexpr size_t kCells = kChunkBytes / kCellBytes - kHeaderCells;
constexpr size_t kWords = (kCells + 63) / 64;
static_assert(kCellBytes == 64);

std::atomic<uint64_t> next_serial{1};

struct FreeCell {
  FreeCell* next;
};

// A chunk's lock: held for a few instructions, almost never contended (each
// thread allocates from a chunk of its own), so a spin on one byte is
// cheaper than a mutex (10% of an actor-making benchmark went to
// pthread_mutex_lock and unlock).
class SpinLock {
 public:
  void lock() {
    while (held_.exchange(true, std::memory_order_acquire))
      while (held_.load(std::memory_order_relaxed)) std::this_thread::yield();
  }
  void unlock() { held_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> held_{false};
};
}  // namespace

struct ActorHeap::Chunk {
  ActorHeap* heap;   // null once the heap is gone and actors still live here
  uint32_t ordinal;  // its place in heap->all_: slots [ordinal * kCells, +kCells)
  SpinLock spin;
  // Guarded by spin:
  FreeCell* free = nullptr;  // cells given back
  uint32_t fresh = 0;        // cells [fresh, kCells) never handed out
  uint32_t used = 0;
  bool listed = false;  // in heap->partial_
  uint64_t live[kWords] = {};
  Chunk* next_partial = nullptr;  // heap->partial_'s link (guarded by the heap's mutex)

  Chunk(ActorHeap* h, uint32_t n) : heap(h), ordinal(n) {}
  char* cell(size_t i) { return reinterpret_cast<char*>(this) + (kHeaderCells + i) * kCellBytes; }
  size_t index(const void* p) const {
    return size_t(static_cast<const char*>(p) - reinterpret_cast<const char*>(this)) / kCellBytes - kHeaderCells;
  }
  static Chunk* of(const void* p) {
    return reinterpret_cast<Chunk*>(reinterpret_cast<uintptr_t>(p) & ~(kChunkBytes - 1));
  }
  bool full() const { return !free && fresh == kCells; }

  static Chunk* make(ActorHeap* h, uint32_t n) {
    static_assert(sizeof(Chunk) <= kHeaderCells * kCellBytes, "the chunk header must fit its cells");
    void* mem = ::operator new(kChunkBytes, std::align_val_t(kChunkBytes));
    auto* c = new (mem) Chunk(h, n);
    POISON(c->cell(0), kCells * kCellBytes);
    return c;
  }
  static void destroy(Chunk* c) {
    UNPOISON(c->cell(0), kCells * kCellBytes);
    c->~Chunk();
    ::operator delete(static_cast<void*>(c), std::align_val_t(kChunkBytes));
  }
};

namespace {
// The chunk this thread allocates from, for the heap with this serial.
struct CurrentChunk {
  uint64_t serial = 0;
  void* chunk = nullptr;
};
thread_local CurrentChunk tl_current;
}  // namespace

ActorHeap::ActorHeap() : serial_(next_serial.fetch_add(1, std::memory_order_relaxed)) {}

ActorHeap::~ActorHeap() {
  std::lock_guard lock(mutex_);
  for (Chunk* c : all_) {
    std::unique_lock cl(c->spin);
    if (c->used == 0) {
      cl.unlock();
      Chunk::destroy(c);
    } else {
      c->heap = nullptr;  // its last actor frees it
    }
  }
}

Actor* ActorHeap::make(uint64_t id, uint32_t name, Value behavior) {
  auto* c = tl_current.serial == serial_ ? static_cast<Chunk*>(tl_current.chunk) : nullptr;
  for (;;) {
    if (!c) {
      c = fresh_chunk();
      tl_current = {serial_, c};
    }
    std::lock_guard lock(c->spin);
    void* mem;
    if (c->free) {
      FreeCell* f = c->free;
      UNPOISON(f, kCellBytes);
      c->free = f->next;
      mem = f;
    } else if (c->fresh < kCells) {
      mem = c->cell(c->fresh++);
      UNPOISON(mem, kCellBytes);
    } else {
      c = nullptr;  // full: another one
      continue;
    }
    auto* a = new (mem) Actor(id, name);
    a->behavior = std::move(behavior);
    a->flags.store(Object::kInHeap, std::memory_order_relaxed);
    const size_t i = c->index(a);
    c->live[i / 64] |= uint64_t(1) << (i % 64);
    ++c->used;
    live_.fetch_add(1, std::memory_order_relaxed);
    return a;
  }
}

ActorHeap::Chunk* ActorHeap::fresh_chunk() {
  std::lock_guard lock(mutex_);
  while (Chunk* c = partial_) {
    partial_ = c->next_partial;
    std::lock_guard cl(c->spin);
    c->listed = false;
    if (!c->full()) return c;
  }
  Chunk* c = Chunk::make(this, uint32_t(all_.size()));
  try {
    all_.push_back(c);
  } catch (const std::bad_alloc&) {
    Chunk::destroy(c);
    throw;
  }
  return c;
}

void ActorHeap::free(Actor* a) {
  Chunk* c = Chunk::of(a);
  bool list = false, last = false;
  ActorHeap* heap;
  {
    std::lock_guard lock(c->spin);
    heap = c->heap;
    const size_t i = c->index(a);
    c->live[i / 64] &= ~(uint64_t(1) << (i % 64));
    --c->used;
    auto* f = reinterpret_cast<FreeCell*>(a);
    f->next = c->free;
    c->free = f;
    POISON(f, kCellBytes);
    if (heap && !c->listed) list = c->listed = true;
    last = !heap && c->used == 0;
  }
  if (last) return Chunk::destroy(c);
  if (!heap) return;
  heap->live_.fetch_sub(1, std::memory_order_relaxed);
  if (list) {  // a link in the chunk: freeing an actor allocates nothing (it may be undoing an out of memory)
    std::lock_guard lock(heap->mutex_);
    c->next_partial = heap->partial_;
    heap->partial_ = c;
  }
}

size_t ActorHeap::chunks() const {
  std::lock_guard lock(mutex_);
  return all_.size();
}

size_t ActorHeap::slots() const {
  std::lock_guard lock(mutex_);
  return all_.size() * kCells;
}

int64_t ActorHeap::slot_of(const Actor& a) const {
  if (!(a.flags.load(std::memory_order_relaxed) & Object::kInHeap)) return -1;
  const Chunk* c = Chunk::of(&a);
  if (c->heap != this) return -1;
  return int64_t(c->ordinal) * int64_t(kCells) + int64_t(c->index(&a));
}

std::vector<ActorHeap::Chunk*> ActorHeap::snapshot() const {
  std::lock_guard lock(mutex_);
  return all_;
}

void ActorHeap::visit(Chunk* c, void (*fn)(Actor&, uint32_t, void*), void* arg) {
  std::lock_guard lock(c->spin);
  const uint32_t base = c->ordinal * uint32_t(kCells);
  for (size_t w = 0; w < kWords; ++w)
    for (uint64_t bits = c->live[w]; bits; bits &= bits - 1) {
      const size_t i = w * 64 + size_t(std::countr_zero(bits));
      fn(*reinterpret_cast<Actor*>(c->cell(i)), base + uint32_t(i), arg);
    }
}

}  // namespace humus::rt
