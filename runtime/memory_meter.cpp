#include "runtime/memory_meter.hpp"

#include <cstdlib>

namespace humus::rt::memory {

namespace detail {
std::atomic<int64_t> in_use{0};
std::atomic<uint64_t> cap{0};
std::atomic<bool> counting{false};

bool fold(size_t bytes) {
  const int64_t now = in_use.fetch_add(tl_delta, std::memory_order_relaxed) + tl_delta;
  tl_delta = 0;
  const uint64_t limit = cap.load(std::memory_order_relaxed);
  if (!bytes || !tl_capped) return false;
  return (limit && now > int64_t(limit)) || (tl_stopped && tl_stopped->load(std::memory_order_relaxed) != 0);
}
}  // namespace detail

void set_counting(bool on) { detail::counting.store(on, std::memory_order_relaxed); }
void set_cap(uint64_t bytes) { detail::cap.store(bytes, std::memory_order_relaxed); }
uint64_t cap() { return detail::cap.load(std::memory_order_relaxed); }

namespace {
// malloc, not operator new: the reserve is not the program's memory, and
// --max-memory does not count it (it is not touched: not resident either).
std::atomic<void*> reserve{nullptr};
}  // namespace

void keep_reserve() {
  if (reserve.load(std::memory_order_acquire)) return;
  void* p = std::malloc(kReserveBytes);
  void* none = nullptr;
  if (p && !reserve.compare_exchange_strong(none, p, std::memory_order_acq_rel)) std::free(p);
}

void release_reserve() { std::free(reserve.exchange(nullptr, std::memory_order_acq_rel)); }

bool room_to_go_on() noexcept {
  constexpr size_t kBlock = size_t(1) << 20;
  constexpr size_t kBlocks = kHeadroomBytes / kBlock;
  void* blocks[kBlocks];
  size_t got = 0;
  while (got < kBlocks && (blocks[got] = ::operator new(kBlock, std::nothrow))) ++got;
  for (size_t i = 0; i < got; ++i) ::operator delete(blocks[i]);
  if (got < kBlocks) return false;
  keep_reserve();
  return reserve.load(std::memory_order_acquire) != nullptr;
}

}  // namespace humus::rt::memory
