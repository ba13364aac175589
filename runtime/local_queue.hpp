// A worker's local run queue: a bounded ring of ready actors.
//
// One owner thread pushes at the tail and pops at the head (FIFO, so an
// actor that used up its budget waits behind the others); any other worker
// may steal half of it from the head. This is the shape of Tokio's and Go's
// local run queues, minus their refinements:
//
//   * `tail_` is written only by the owner, so a push is a plain store;
//   * `head_` moves by compare-and-swap, whether the owner pops one actor or
//     a thief takes several, so the two never hand out the same actor;
//   * a thief copies the actors out before its CAS; if the CAS fails (the
//     owner or another thief moved the head) it copies again. The owner
//     never overwrites slots between head and tail, so what the thief
//     copied is still valid whenever its CAS succeeds.
//
// Indices grow without wrapping the buffer (slot = index % kCapacity); a
// 32-bit index would need four billion pops inside one steal to alias.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace humus::rt {

struct Actor;

class LocalQueue {
 public:
  static constexpr uint32_t kCapacity = 256;

  // Owner only. False when full (the caller moves work to the global queue).
  bool push(Actor* a) {
    const uint32_t t = tail_.load(std::memory_order_relaxed);
    // Acquire pairs with thieves' CAS: slots before head are theirs now.
    const uint32_t h = head_.load(std::memory_order_acquire);
    if (t - h >= kCapacity) return false;
    slots_[t % kCapacity].store(a, std::memory_order_relaxed);
    // Release publishes the slot to thieves that read tail.
    tail_.store(t + 1, std::memory_order_release);
    return true;
  }

  // Owner only. The oldest actor, or null when empty.
  Actor* pop() {
    uint32_t h = head_.load(std::memory_order_acquire);
    const uint32_t t = tail_.load(std::memory_order_relaxed);
    while (h != t) {
      Actor* a = slots_[h % kCapacity].load(std::memory_order_relaxed);
      // On failure h is reloaded: a thief took it (and maybe more).
      if (head_.compare_exchange_weak(h, h + 1, std::memory_order_acq_rel, std::memory_order_acquire)) return a;
    }
    return nullptr;
  }

  // Any thread but the owner: moves about half of this queue into `out`
  // (capacity kCapacity / 2); returns how many.
  uint32_t steal_half(Actor** out) {
    uint32_t h = head_.load(std::memory_order_acquire);
    for (;;) {
      // Acquire pairs with the owner's release of tail: those slots are written.
      const uint32_t t = tail_.load(std::memory_order_acquire);
      const uint32_t n = t - h;
      if (n == 0 || n > kCapacity) return 0;  // empty, or h is stale beyond repair: give up
      const uint32_t take = n - n / 2;
      for (uint32_t i = 0; i < take; ++i) out[i] = slots_[(h + i) % kCapacity].load(std::memory_order_relaxed);
      if (head_.compare_exchange_weak(h, h + take, std::memory_order_acq_rel, std::memory_order_acquire)) return take;
    }
  }

  // Owner only: how many are queued (approximate for anyone else).
  uint32_t size() const {
    return tail_.load(std::memory_order_acquire) - head_.load(std::memory_order_acquire);
  }

 private:
  alignas(64) std::atomic<uint32_t> head_{0};  // thieves and owner
  alignas(64) std::atomic<uint32_t> tail_{0};  // owner writes, thieves read
  std::array<std::atomic<Actor*>, kCapacity> slots_{};
};

}  // namespace humus::rt
