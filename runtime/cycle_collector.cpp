#include "runtime/cycle_collector.hpp"

#include <vector>

#include "runtime/code.hpp"
#include "runtime/foreign.hpp"

namespace humus::rt {

namespace {

// The values an object holds counted references to. Must match exactly what
// destroy() (value.cpp) releases: an edge counted here that holds no
// reference would make a live object look unreferenced.
template <class F>
void for_children(Object* o, F&& f) {
  switch (o->kind) {
    case ObjKind::Pair: {
      auto* p = static_cast<Pair*>(o);
      f(p->head);
      f(p->tail);
      break;
    }
    case ObjKind::Actor:
      f(static_cast<Actor*>(o)->behavior);  // queued messages are roots: not edges
      break;
    case ObjKind::Closure: {
      auto* c = static_cast<Closure*>(o);
      for (uint32_t i = 0; i < c->count; ++i) f(c->captures()[i]);
      break;
    }
    case ObjKind::Block: {
      auto* b = static_cast<BlockValue*>(o);
      for (uint32_t i = 0; i < b->count; ++i) f(b->captures()[i]);
      break;
    }
    case ObjKind::Envelope:
      f(static_cast<Envelope*>(o)->value);
      break;
    case ObjKind::BigInt:
    case ObjKind::Native:
      break;
  }
}

// A new reference to `a`, unless its count already reached zero (it is
// being destroyed on another thread, and its cell freed once that is done).
bool try_retain(Actor& a) {
  uint32_t n = a.refs.load(std::memory_order_relaxed);
  while (n != 0)
    if (a.refs.compare_exchange_weak(n, n + 1, std::memory_order_acquire, std::memory_order_relaxed)) return true;
  return false;
}

struct Node {
  Object* object;
  uint32_t internal = 0;  // edges from other nodes, and from objects only nodes hold
  bool actor = false;     // an actor of the heap, retained for the collection
  bool live = false;
};

// Object* -> node index, open addressing, for the shared objects that are
// not actors (closures and lists that several values hold).
class NodeIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  explicit NodeIndex(size_t expected) { resize(expected * 2 + 16); }
  uint32_t find(const Object* o) const {
    for (size_t i = hash(o) & mask_;; i = (i + 1) & mask_) {
      if (keys_[i] == o) return values_[i];
      if (!keys_[i]) return kNone;
    }
  }
  void insert(Object* o, uint32_t v) {
    if ((count_ + 1) * 2 > keys_.size()) resize(keys_.size() * 2);
    place(o, v);
    ++count_;
  }

 private:
  static size_t hash(const Object* o) { return (reinterpret_cast<uintptr_t>(o) >> 3) * 0x9E3779B97F4A7C15ull >> 16; }
  void place(Object* o, uint32_t v) {
    size_t i = hash(o) & mask_;
    while (keys_[i]) i = (i + 1) & mask_;
    keys_[i] = o;
    values_[i] = v;
  }
  void resize(size_t want) {
    size_t n = 16;
    while (n < want) n *= 2;
    std::vector<Object*> old_keys(n, nullptr);
    std::vector<uint32_t> old_values(n);
    old_keys.swap(keys_);
    old_values.swap(values_);
    mask_ = n - 1;
    for (size_t i = 0; i < old_keys.size(); ++i)
      if (old_keys[i]) place(old_keys[i], old_values[i]);
  }
  std::vector<Object*> keys_;
  std::vector<uint32_t> values_;
  size_t mask_ = 0;
  size_t count_ = 0;
};

class Collection {
 public:
  explicit Collection(ActorHeap& heap) : heap_(heap), index_(1024) {}
  Collection(const Collection&) = delete;
  Collection& operator=(const Collection&) = delete;
  // Out of memory midway (std::bad_alloc from any step before the garbage
  // is cleared): the actors are let go again, and nothing has changed.
  ~Collection() {
    if (!released_)
      for (Node& n : nodes_)
        if (n.actor) n.object->release();
  }

  CollectResult run() {
    enumerate();
    count_edges();
    mark_live();
    return free_garbage();
  }

 private:
  // The node of a heap actor or of a shared object, if it has one. Actors
  // are found by their slot (no hashing: most nodes are actors).
  uint32_t find(Object* c) const {
    if (c->kind != ObjKind::Actor) return index_.find(c);
    const int64_t slot = heap_.slot_of(*static_cast<Actor*>(c));
    return slot >= 0 && size_t(slot) < actor_nodes_.size() ? actor_nodes_[size_t(slot)] : NodeIndex::kNone;
  }

  // Every live actor of the heap becomes a node, held by one more reference
  // for the collection so that no other thread frees it meanwhile.
  void enumerate() {
    actor_nodes_.assign(heap_.slots(), NodeIndex::kNone);
    nodes_.reserve(size_t(heap_.live() > 0 ? heap_.live() : 0) + 1024);
    heap_.for_each([this](Actor& a, uint32_t slot) {
      if (a.immortal()) return;                // a root that holds what it reaches
      nodes_.push_back({&a, 0, true, false});  // first: if this throws, nothing is held
      if (!try_retain(a)) {
        nodes_.pop_back();  // being destroyed on another thread
        return;
      }
      actor_nodes_[slot] = uint32_t(nodes_.size() - 1);
    });
  }

  // Step 1: the nodes reachable from the actors, and the edges between
  // them, recorded by source (edges_ from edge_start_[i] to
  // edge_start_[i + 1]), so that step 3 reads no object again. An object
  // with one reference, reached by an edge, is held by that edge alone: it
  // needs no node, only walking through (its node-children are its
  // holder's). New shared objects join nodes_ and are walked in turn.
  void count_edges() {
    edge_start_.reserve(nodes_.size() + 1);
    edges_.reserve(nodes_.size());
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
      edge_start_.push_back(uint32_t(edges_.size()));
      walk_.push_back(nodes_[i].object);
      while (!walk_.empty()) {
        Object* o = walk_.back();
        walk_.pop_back();
        for_children(o, [this](const Value& v) {
          if (!v.is_object()) return;
          Object* c = v.object();
          if (c->immortal()) return;  // a root, and it holds what it reaches
          uint32_t j = find(c);
          if (j == NodeIndex::kNone) {
            if (c->kind == ObjKind::Actor) return;  // not this heap's, or being destroyed: not ours to judge
            if (c->refs.load(std::memory_order_acquire) <= 1) {
              walk_.push_back(c);
              return;
            }
            j = uint32_t(nodes_.size());
            index_.insert(c, j);
            nodes_.push_back({c});
          }
          ++nodes_[j].internal;
          edges_.push_back(j);
        });
      }
    }
    edge_start_.push_back(uint32_t(edges_.size()));
  }

  // Steps 2 and 3: what is held from outside, and all it reaches, is live.
  void mark_live() {
    std::vector<uint32_t> work;
    for (uint32_t i = 0; i < nodes_.size(); ++i) {
      Node& n = nodes_[i];
      const uint32_t held = n.internal + (n.actor ? 1 : 0);
      bool root = n.object->refs.load(std::memory_order_acquire) > held;
      if (n.actor && static_cast<Actor*>(n.object)->state.load(std::memory_order_acquire) != SchedState::Idle)
        root = true;
      if (root) {
        n.live = true;
        work.push_back(i);
      }
    }
    while (!work.empty()) {
      const uint32_t i = work.back();
      work.pop_back();
      for (uint32_t e = edge_start_[i]; e < edge_start_[i + 1]; ++e) {
        Node& t = nodes_[edges_[e]];
        if (!t.live) {
          t.live = true;
          work.push_back(edges_[e]);
        }
      }
    }
  }

  // Step 4: garbage objects are kept by one more reference while their
  // contents are cleared (which breaks every cycle among them), then let go.
  CollectResult free_garbage() {
    CollectResult r;
    std::vector<Object*> garbage;
    size_t dead = 0;
    for (const Node& n : nodes_) dead += n.live ? 0 : 1;
    garbage.reserve(dead);  // the last allocation: what follows cannot fail halfway
    for (Node& n : nodes_) {
      if (n.live) continue;
      if (n.actor)
        ++r.actors_collected;
      else
        n.object->retain();
      garbage.push_back(n.object);
    }
    for (Object* o : garbage) clear_contents(o);
    for (Object* o : garbage)
      if (o->kind != ObjKind::Actor) o->release();
    released_ = true;
    for (Node& n : nodes_)
      if (n.actor) n.object->release();
    return r;
  }

  ActorHeap& heap_;
  NodeIndex index_;                    // shared objects that are not actors
  std::vector<uint32_t> actor_nodes_;  // slot -> node
  std::vector<Node> nodes_;
  std::vector<Object*> walk_;
  std::vector<uint32_t> edge_start_;  // node -> its first edge in edges_
  std::vector<uint32_t> edges_;       // edges between nodes, grouped by source
  bool released_ = false;
};

}  // namespace

CollectResult collect_cycles(ActorHeap& heap) { return Collection(heap).run(); }

}  // namespace humus::rt
