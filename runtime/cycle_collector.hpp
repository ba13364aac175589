// Frees actors that only other garbage points to: reference cycles, which
// reference counting alone never frees (a fork/join customer and the actors
// it waits for point at each other).
//
// Trial deletion (Bacon & Rajan, "Concurrent Cycle Collection in Reference
// Counted Systems", in its synchronous form), over a side table instead of
// the counts themselves, so nothing a program can see ever changes:
//
//   1. every live actor of the heap, and every object reachable from their
//      behaviors, becomes a node; each edge between nodes is counted, and
//      each node's reference count read, in one pass over the heap;
//   2. a node whose reference count is more than the edges into it is held
//      from outside: a queued message, a timer, a global, a host handle, a
//      running event, the REPL's bindings, another node's export table...
//      all of these hold counted references, so none needs listing;
//   3. everything reachable from those is live; the rest is garbage: each
//      garbage object's contents are cleared, which frees the lot.
//
// Immutable values make this sound: pairs, closures and blocks never change
// after they are made (outside the event that makes them), so the only
// edges that move are actors' behaviors, which only a running event
// changes. collect() must therefore run while no event and no top-level
// statement runs (the runtime pauses its workers for it: see
// Runtime::collect_cycles). Other threads may copy and drop references
// meanwhile. Copying a value held from outside keeps it counted throughout;
// the one move the reads can miss is a host taking an element out of a list
// and then dropping the list, between the reads of the two counts (the
// element read before the copy, the list after the drop). Whatever the host
// took is then garbage by the counts but held by the host, with a count one
// higher than was read: before clearing anything, a collection reads the
// garbage's counts again, and if one changed it gives up and changes
// nothing. (An element the host took and let go again was not needed.)
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "runtime/actor_heap.hpp"

namespace humus::rt {

struct CollectResult {
  bool raced = false;             // a garbage count changed while it looked: nothing was done
  uint64_t actors_collected = 0;  // actors freed
  uint64_t actors_seen = 0;       // live actors it looked at
};

// The collector, with the tables it keeps between collections: filling
// fresh pages cost as much as a third of a collection. Tables much larger
// than the last collection needed are given back.
class CycleCollector {
 public:
  CycleCollector();
  ~CycleCollector();
  CycleCollector(const CycleCollector&) = delete;
  CycleCollector& operator=(const CycleCollector&) = delete;

  // Must run while no event and no outside code that makes values runs.
  CollectResult collect(ActorHeap& heap);

  // For tests: runs after each actor's count is read (a host's copy, made
  // at the worst moment).
  std::function<void(const Actor&)> after_reading;

  struct Tables;  // (cycle_collector.cpp)

 private:
  std::unique_ptr<Tables> tables_;
};

}  // namespace humus::rt
