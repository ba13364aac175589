#include "runtime/memory_meter.hpp"

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

}  // namespace humus::rt::memory
