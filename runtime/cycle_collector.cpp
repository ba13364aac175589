#include "runtime/cycle_collector.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "runtime/children.hpp"
#include "runtime/code.hpp"
#include "runtime/foreign.hpp"

namespace humus::rt {

namespace {

// A new reference to `a`, unless its count already reached zero (it is
// being destroyed on another thread, and its cell freed once that is done).
// `before` gets the count it had.
bool try_retain(Actor& a, uint32_t& before) {
  uint32_t n = a.refs.load(std::memory_order_relaxed);
  while (n != 0)
    if (a.refs.compare_exchange_weak(n, n + 1, std::memory_order_acquire, std::memory_order_relaxed)) {
      before = n;
      return true;
    }
  return false;
}

constexpr uint32_t kNone = UINT32_MAX;
constexpr uint32_t kBusy = UINT32_MAX;  // the count given an actor in an event: more than any edges

}  // namespace

struct CycleCollector::Tables {
  struct Node {
    Object* object = nullptr;  // null: a cell with no live actor
    uint32_t refs = 0;         // its count when read (the collection's own not included)
    uint32_t internal = 0;     // edges from other nodes, and from objects only nodes hold
  };
  std::vector<Node> nodes;  // the heap's actors at their slots, then shared objects
  std::vector<uint8_t> live;
  std::vector<uint32_t> edge_start;  // node -> its first edge in edges
  std::vector<uint32_t> edges;       // edges between nodes, grouped by source
  std::vector<Object*> walk;
  std::vector<uint32_t> work;
  std::vector<Object*> garbage;
  // Object* -> node, open addressing: the shared objects that are not actors
  // (closures and lists that several values hold).
  std::vector<Object*> keys;
  std::vector<uint32_t> values;
  size_t keyed = 0;

  void clear() {
    nodes.clear();
    live.clear();
    edge_start.clear();
    edges.clear();
    walk.clear();
    work.clear();
    garbage.clear();
    std::fill(keys.begin(), keys.end(), nullptr);
    keyed = 0;
  }
  // A vector far larger than this collection needed goes back (a burst of
  // actors that died should not keep its tables for the rest of the run).
  template <class T>
  static void trim(std::vector<T>& v) {
    if (v.capacity() > 4 * v.size() + 4096) std::vector<T>().swap(v);
  }
  void trim_all() {
    trim(nodes);
    trim(live);
    trim(edge_start);
    trim(edges);
    trim(walk);
    trim(work);
    trim(garbage);
    if (keys.size() > 4 * 2 * keyed + 4096) {
      std::vector<Object*>().swap(keys);
      std::vector<uint32_t>().swap(values);
    }
  }

  static size_t hash(const Object* o) { return (reinterpret_cast<uintptr_t>(o) >> 3) * 0x9E3779B97F4A7C15ull >> 16; }
  uint32_t find_shared(const Object* o) const {
    if (keys.empty()) return kNone;
    const size_t mask = keys.size() - 1;
    for (size_t i = hash(o) & mask;; i = (i + 1) & mask) {
      if (keys[i] == o) return values[i];
      if (!keys[i]) return kNone;
    }
  }
  void insert_shared(Object* o, uint32_t v) {
    if ((keyed + 1) * 2 > keys.size()) rehash(std::max<size_t>(64, keys.size() * 2));
    place(o, v);
    ++keyed;
  }
  void place(Object* o, uint32_t v) {
    const size_t mask = keys.size() - 1;
    size_t i = hash(o) & mask;
    while (keys[i]) i = (i + 1) & mask;
    keys[i] = o;
    values[i] = v;
  }
  void rehash(size_t n) {
    std::vector<Object*> old_keys(n, nullptr);
    std::vector<uint32_t> old_values(n);
    old_keys.swap(keys);
    old_values.swap(values);
    for (size_t i = 0; i < old_keys.size(); ++i)
      if (old_keys[i]) place(old_keys[i], old_values[i]);
  }
};

namespace {

class Collection {
  using Tables = CycleCollector::Tables;

 public:
  Collection(ActorHeap& heap, Tables& t, const std::function<void(const Actor&)>& after_reading)
      : heap_(heap), t_(t), after_reading_(after_reading) {
    t_.clear();
  }
  Collection(const Collection&) = delete;
  Collection& operator=(const Collection&) = delete;
  // Out of memory midway (std::bad_alloc from any step before the garbage
  // is cleared), or a race seen: the actors are let go again, and nothing
  // has changed.
  ~Collection() {
    if (!released_) release_actors();
  }

  CollectResult run() {
    scan();
    mark_live();
    if (!garbage_unchanged()) return {.raced = true};
    return free_garbage();
  }

 private:
  void release_actors() {
    for (size_t i = 0; i < slots_; ++i)
      if (Object* o = t_.nodes[i].object) o->release();
  }

  // The node of an object a node holds: a heap actor's is its slot (no
  // hashing: most nodes are actors), a shared object's is in the index.
  uint32_t find(Object* c) const {
    if (c->kind != ObjKind::Actor) return t_.find_shared(c);
    const int64_t slot = heap_.slot_of(*static_cast<Actor*>(c));
    return slot >= 0 && size_t(slot) < slots_ ? uint32_t(slot) : kNone;
  }

  // Step 1, in one pass over the heap: every live actor becomes a node at
  // its slot, held by one more reference for the collection so that no
  // other thread frees it meanwhile, and its count is read. Then the nodes
  // reachable from it, and the edges between them, are recorded by source
  // (edges from edge_start[i] to edge_start[i + 1]), so that step 3 reads
  // no object again. An object with one reference, reached by an edge, is
  // held by that edge alone: it needs no node, only walking through (its
  // node-children are its holder's). New shared objects join the nodes
  // after the actors and are walked in turn.
  void scan() {
    const size_t slots = heap_.slots();
    t_.nodes.assign(slots, {});
    slots_ = slots;  // after: if that ran out of memory, the destructor has no nodes to let go
    t_.edge_start.reserve(slots_ + 1);
    heap_.for_each([this](Actor& a, uint32_t slot) {
      if (a.immortal() || slot >= slots_) return;  // a root that holds what it reaches; or a chunk made since
      uint32_t before;
      if (!try_retain(a, before)) return;  // being destroyed on another thread
      t_.nodes[slot].object = &a;          // before anything that may throw: the destructor lets it go
      ++seen_;
      t_.nodes[slot].refs = a.state.load(std::memory_order_acquire) != SchedState::Idle ? kBusy : before;
      if (after_reading_) [[unlikely]]
        after_reading_(a);
      while (t_.edge_start.size() <= slot) t_.edge_start.push_back(uint32_t(t_.edges.size()));
      walk(&a);
    });
    while (t_.edge_start.size() < slots_) t_.edge_start.push_back(uint32_t(t_.edges.size()));
    for (size_t i = slots_; i < t_.nodes.size(); ++i) {
      t_.edge_start.push_back(uint32_t(t_.edges.size()));
      walk(t_.nodes[i].object);
    }
    t_.edge_start.push_back(uint32_t(t_.edges.size()));
  }

  void walk(Object* from) {
    t_.walk.push_back(from);
    while (!t_.walk.empty()) {
      Object* o = t_.walk.back();
      t_.walk.pop_back();
      for_children(o, [this](const Value& v) {
        if (!v.is_object()) return;
        Object* c = v.object();
        if (c->immortal()) return;  // a root, and it holds what it reaches
        uint32_t j = find(c);
        if (j == kNone) {
          if (c->kind == ObjKind::Actor) return;  // not this heap's: not ours to judge
          const uint32_t refs = c->refs.load(std::memory_order_acquire);
          if (refs <= 1) {
            t_.walk.push_back(c);
            return;
          }
          j = uint32_t(t_.nodes.size());
          t_.nodes.push_back({c, refs, 0});
          t_.insert_shared(c, j);
        }
        ++t_.nodes[j].internal;
        t_.edges.push_back(j);
      });
    }
  }

  // Steps 2 and 3: what is held from outside, and all it reaches, is live.
  void mark_live() {
    t_.live.assign(t_.nodes.size(), 0);
    for (uint32_t i = 0; i < t_.nodes.size(); ++i) {
      const auto& n = t_.nodes[i];
      if (n.object && n.refs > n.internal) {
        t_.live[i] = 1;
        t_.work.push_back(i);
      }
    }
    while (!t_.work.empty()) {
      const uint32_t i = t_.work.back();
      t_.work.pop_back();
      for (uint32_t e = t_.edge_start[i]; e < t_.edge_start[i + 1]; ++e) {
        const uint32_t j = t_.edges[e];
        if (!t_.live[j]) {
          t_.live[j] = 1;
          t_.work.push_back(j);
        }
      }
    }
  }

  // Whether every garbage node's count is still what step 1 read (an
  // actor's has the collection's own reference more). One that is higher
  // was copied by outside code since: see cycle_collector.hpp.
  bool garbage_unchanged() const {
    for (size_t i = 0; i < t_.nodes.size(); ++i) {
      const auto& n = t_.nodes[i];
      if (!n.object || t_.live[i]) continue;
      const uint32_t now = n.object->refs.load(std::memory_order_acquire);
      if (now != n.refs + (i < slots_ ? 1 : 0)) return false;
    }
    return true;
  }

  // Step 4: garbage objects are kept by one more reference while their
  // contents are cleared (which breaks every cycle among them), then let go.
  CollectResult free_garbage() {
    CollectResult r;
    r.actors_seen = seen_;
    size_t dead = 0;
    for (size_t i = 0; i < t_.nodes.size(); ++i) dead += t_.nodes[i].object && !t_.live[i] ? 1 : 0;
    t_.garbage.reserve(dead);  // the last allocation: what follows cannot fail halfway
    for (size_t i = 0; i < t_.nodes.size(); ++i) {
      Object* o = t_.nodes[i].object;
      if (!o || t_.live[i]) continue;
      if (i < slots_)
        ++r.actors_collected;
      else
        o->retain();
      t_.garbage.push_back(o);
    }
    for (Object* o : t_.garbage) clear_contents(o);
    for (size_t i = slots_; i < t_.nodes.size(); ++i)
      if (!t_.live[i]) t_.nodes[i].object->release();
    released_ = true;
    release_actors();
    return r;
  }

  ActorHeap& heap_;
  Tables& t_;
  const std::function<void(const Actor&)>& after_reading_;
  size_t slots_ = 0;  // nodes below this are the heap's cells
  uint64_t seen_ = 0;
  bool released_ = false;
};

}  // namespace

CycleCollector::CycleCollector() : tables_(std::make_unique<Tables>()) {}
CycleCollector::~CycleCollector() = default;

CollectResult CycleCollector::collect(ActorHeap& heap) {
  CollectResult r = Collection(heap, *tables_, after_reading).run();
  tables_->trim_all();
  return r;
}

}  // namespace humus::rt
