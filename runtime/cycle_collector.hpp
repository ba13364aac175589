// Frees actors that only other garbage points to: reference cycles, which
// reference counting alone never frees (a fork/join customer and the actors
// it waits for point at each other).
//
// Trial deletion (Bacon & Rajan, "Concurrent Cycle Collection in Reference
// Counted Systems", in its synchronous form), over a side table instead of
// the counts themselves, so nothing a program can see ever changes:
//
//   1. every live actor of the heap, and every object reachable from their
//      behaviors, becomes a node; each edge between nodes is counted;
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
// meanwhile: a copy needs a reference held from outside, which makes what
// it reaches live anyway, and a drop can only make garbage of what a later
// collection takes.
#pragma once

#include <cstdint>

#include "runtime/actor_heap.hpp"

namespace humus::rt {

struct CollectResult {
  uint64_t actors_collected = 0;  // actors freed
};

CollectResult collect_cycles(ActorHeap& heap);

}  // namespace humus::rt
