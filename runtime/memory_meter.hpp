// The bytes the interpreter has allocated, and the --max-memory cap on them.
//
// The humus command routes every operator new and delete through
// memory::allocated / memory::freed (interpreter/cli/counted_new.cpp), and
// GMP allocates through operator new too (gmp_memory.cpp), so the count
// covers values, messages, actors, big integers and the compiler's data.
// Each thread adds to its own count and folds it into the shared one every
// kFlushBytes: the shared count is exact to within kFlushBytes per thread.
//
// While a thread runs an event's own code (not its commit) or compiles, it
// is "capped" (CapScope): an allocation that takes the shared count past the
// cap throws MemoryCapReached (a std::bad_alloc) from operator new, which
// stops the run for the limit; so the cap holds within an event, not only
// between events. Elsewhere an allocation past the cap goes through and the
// limit monitor stops the run within its period (runtime/limits.hpp).
// An embedding host keeps its own operator new: nothing is counted then.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

namespace humus::rt::memory {

inline constexpr int64_t kFlushBytes = int64_t(64) << 10;

namespace detail {
extern std::atomic<int64_t> in_use;  // bytes, folded in from the threads' counts
extern std::atomic<uint64_t> cap;    // 0: none
extern std::atomic<bool> counting;   // an operator new that counts is installed
inline thread_local int64_t tl_delta = 0;
inline thread_local int tl_capped = 0;
inline thread_local const std::atomic<int>* tl_stopped = nullptr;  // the runtime's "a limit stopped me"
bool fold(size_t bytes);  // folds tl_delta in; true when a capped allocation is over the cap
}  // namespace detail

// The cap reached inside a capped region (an event, compiling).
struct MemoryCapReached : std::bad_alloc {
  const char* what() const noexcept override { return "--max-memory reached"; }
};

// Counts `bytes` more in use; false when this allocation must fail (the
// thread is capped and the shared count is past the cap): the caller frees
// it and throws MemoryCapReached. allocated_fast is the inline half: false
// when the thread's count is due to be folded in (then allocated_over_flush
// says).
inline bool allocated_fast(size_t bytes) {
  detail::tl_delta += int64_t(bytes);
  return detail::tl_delta < kFlushBytes;
}
inline bool allocated_over_flush(size_t bytes) { return !detail::fold(bytes); }
inline bool allocated(size_t bytes) { return allocated_fast(bytes) || allocated_over_flush(bytes); }
inline void freed(size_t bytes) {
  detail::tl_delta -= int64_t(bytes);
  if (detail::tl_delta <= -kFlushBytes) [[unlikely]]
    detail::fold(0);
}

// Bytes in use, process-wide (within kFlushBytes per thread); 0 when no
// counting operator new is installed.
inline int64_t in_use() { return detail::in_use.load(std::memory_order_relaxed); }
inline bool counting() { return detail::counting.load(std::memory_order_relaxed); }
void set_counting(bool on);    // by the operator new that counts
void set_cap(uint64_t bytes);  // 0: none; process-wide, the last runtime with a limit sets it
uint64_t cap();

// Marks the current thread capped while it lives (nests). With `stopped`
// (a runtime's limit flag), a capped allocation also fails once that is
// non-zero: a run stopped for a limit (the resident set, --timeout) ends an
// event that keeps allocating, as the cap itself would.
// Running out of memory (ulimit -v; docs/reliability.md). A block of
// kReserveBytes is kept back from the allocator while a runtime lives, so
// that reporting an error and winding a run down have room when an
// allocation has failed.
inline constexpr size_t kReserveBytes = size_t(4) << 20;
// What an undone event must leave free for the run to go on: the program's
// own live data fill memory when even this much cannot be had, and running
// more events would only fail them one after another.
inline constexpr size_t kHeadroomBytes = size_t(16) << 20;
void keep_reserve();     // takes the reserve if it is not held (a runtime's creation)
void release_reserve();  // gives it back: room for the error path
// After an event or statement that ran out of memory was undone: whether
// kHeadroomBytes can be allocated (in blocks of a megabyte, through operator
// new) and the reserve taken back. False: memory is still full.
bool room_to_go_on() noexcept;

class CapScope {
 public:
  explicit CapScope(const std::atomic<int>* stopped = nullptr) : saved_(detail::tl_stopped) {
    ++detail::tl_capped;
    if (stopped) detail::tl_stopped = stopped;
  }
  ~CapScope() {
    --detail::tl_capped;
    detail::tl_stopped = saved_;
  }
  CapScope(const CapScope&) = delete;
  CapScope& operator=(const CapScope&) = delete;

 private:
  const std::atomic<int>* saved_;
};

}  // namespace humus::rt::memory
