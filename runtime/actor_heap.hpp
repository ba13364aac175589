// Where a runtime's actors live: 64-byte cells in 64 KiB chunks.
//
// Reference counting frees most actors; the cycle collector
// (cycle_collector.hpp) must find the rest, which nothing outside them
// points to, so it needs every live actor of the runtime: a chunk's live
// bitmap lists them without a word more per actor (an Actor fills its cache
// line). An actor is built completely, behavior included, before its bit is
// set, so the collector never sees one half made.
//
// Allocation takes a chunk's lock, uncontended in the common case: each
// thread allocates from its own current chunk (a thread_local cache), and a
// free from another thread locks the chunk the cell belongs to, found by
// masking the address. Chunks are kept for reuse while the heap lives (a
// run's high-water mark of actors stays allocated, at 64 bytes each); one
// that still holds actors when the heap goes is given up to them and freed
// with its last actor.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "runtime/actor.hpp"

namespace humus::rt {

class ActorHeap {
 public:
  ActorHeap();
  ~ActorHeap();
  ActorHeap(const ActorHeap&) = delete;
  ActorHeap& operator=(const ActorHeap&) = delete;

  // A new actor with one reference, its behavior set, flagged kInHeap.
  Actor* make(uint64_t id, uint32_t name, Value behavior);
  // Gives back the cell of a destroyed heap actor (value.cpp's destroy()).
  static void free(Actor* a);

  // Calls fn(Actor&, slot) for every live actor, one chunk at a time under
  // its lock: fn must not make or free actors. A slot numbers a cell of
  // this heap densely, below slots(): the collector's tables use it instead
  // of a hash of the address.
  template <class F>
  void for_each(F fn);
  size_t slots() const;
  // The slot of `a`, if it lives in this heap; else -1 (made by new, or by
  // another runtime). Only while no chunk is added (the collector's pause).
  int64_t slot_of(const Actor& a) const;

  int64_t live() const { return live_.load(std::memory_order_relaxed); }
  size_t chunks() const;

 private:
  struct Chunk;
  Chunk* fresh_chunk();  // one with a free cell, made or reused

  const uint64_t serial_;  // tells this heap from an earlier one at the same address
  mutable std::mutex mutex_;
  std::vector<Chunk*> all_;      // every chunk, for for_each
  Chunk* partial_ = nullptr;     // chunks that had a cell freed since they were last handed out (linked)
  std::atomic<int64_t> live_{0};

  std::vector<Chunk*> snapshot() const;
  static void visit(Chunk* c, void (*fn)(Actor&, uint32_t, void*), void* arg);
};

template <class F>
void ActorHeap::for_each(F fn) {
  for (Chunk* c : snapshot())
    visit(
        c, [](Actor& a, uint32_t slot, void* f) { (*static_cast<F*>(f))(a, slot); }, &fn);
}

}  // namespace humus::rt
