// Value kinds, object freeing, and the trailing-array objects (closures, blocks).
//
// Freeing is iterative. Destroying an object releases the Values it holds,
// which may free further objects; done naively, dropping a ten-million-element
// list recurses ten million deep. Instead the first free on a thread becomes
// the "outer" one: any object whose count reaches zero while it runs is put on
// a per-thread worklist, and the outer free drains that list in a loop.
#include <pthread.h>

#include <algorithm>
#include <cstdlib>
#include <new>

#include "runtime/actor.hpp"
#include "runtime/actor_heap.hpp"
#include "runtime/code.hpp"
#include "runtime/foreign.hpp"
#include "runtime/integer.hpp"
#include "runtime/map_trie.hpp"
#include "runtime/packed.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

namespace detail {
std::atomic<bool> count_objects{false};
// Own cache line: when counting is on, the counter bounces between cores but
// the flag, read on every allocation, does not.
alignas(64) std::atomic<int64_t> live_count{0};
}  // namespace detail

void enable_live_object_count() { detail::count_objects.store(true, std::memory_order_relaxed); }
bool live_object_count_enabled() { return detail::count_objects.load(std::memory_order_relaxed); }
int64_t live_objects() { return detail::live_count.load(std::memory_order_relaxed); }

Kind Value::kind() const {
  if (is_small()) return Kind::Integer;
  if (is_object()) {
    switch (object()->kind) {
      case ObjKind::Pair:
      case ObjKind::Str:
      case ObjKind::Map:
      case ObjKind::Lines:
        return Kind::Pair;
      case ObjKind::MapTrie:
        return Kind::Undefined;  // never seen by programs
      case ObjKind::BigInt:
        return Kind::Integer;
      case ObjKind::Actor:
        return Kind::Actor;
      case ObjKind::Closure:
      case ObjKind::Native:
        return Kind::Function;
      case ObjKind::Block:
        return Kind::Block;
      case ObjKind::Envelope:
        return Kind::Undefined;  // never seen by programs
    }
  }
  if (is_symbol()) return Kind::Symbol;
  if (is_nil()) return Kind::Nil;
  if (is_boolean()) return Kind::Boolean;
  return Kind::Undefined;  // ? and the empty Value
}

namespace {

// The per-thread worklist. Trivially constructible and destructible on
// purpose: a thread_local with a destructor (std::vector) could be destroyed
// while later thread-exit code still drops Values on this thread. The first
// kInline entries need no allocation, which covers lists and most trees (a
// list keeps at most two entries pending); deeper trees spill to a malloc'd
// buffer that is given back when the outer free finishes.
struct FreeList {
  static constexpr uint32_t kInline = 62;
  bool active;
  uint32_t n;
  uint32_t cap;    // capacity of `spill`
  Object** spill;  // entries kInline.. when n > kInline
  Object* inline_[kInline];

  void push(Object* o) {
    if (n < kInline) {
      inline_[n++] = o;
      return;
    }
    uint32_t i = n - kInline;
    if (i == cap) {
      cap = cap ? cap * 2 : 256;
      auto* p = static_cast<Object**>(std::realloc(spill, size_t(cap) * sizeof(Object*)));
      if (!p) {
        // Out of memory while freeing: the object (and what only it holds)
        // is lost to the process, which goes on, rather than the process.
        cap = i;
        return;
      }
      spill = p;
    }
    spill[i] = o;
    ++n;
  }
  Object* pop() {
    --n;
    return n < kInline ? inline_[n] : spill[n - kInline];
  }
};

thread_local FreeList tl_free;

// Gives a thread's kept pairs back to the allocator when the thread ends;
// pairs freed after that go straight to the allocator. A pthread key's
// destructor rather than a thread_local's: registering one of those takes
// memory, and a thread's first free of a pair may come while an
// out-of-memory error unwinds (glibc then ends the process; issue 34).
// Key destructors run after the thread_local ones, which may still free pairs.
void release_pair_cache(void*) {
  detail::PairCache& c = detail::tl_pairs;
  while (void* p = c.head) {
    c.head = *static_cast<void**>(p);
    ::operator delete(p);
  }
  c.count = detail::PairCache::kMax;
}

struct PairCacheKey {
  pthread_key_t key{};
  bool made = pthread_key_create(&key, release_pair_cache) == 0;
};

template <class T>
void destroy_trailing(T* o, Value* slots) {
  for (uint32_t i = 0, n = o->count; i < n; ++i) slots[i].~Value();
  o->~T();
  ::operator delete(static_cast<void*>(o));
}

// Runs the destructor of one object whose count reached zero. Values it
// holds are released as usual; those that reach zero land on tl_free.
void destroy(Object* o) {
  switch (o->kind) {
    case ObjKind::Pair:
      delete static_cast<Pair*>(o);
      break;
    case ObjKind::BigInt:
      delete static_cast<BigInt*>(o);
      break;
    case ObjKind::Actor: {
      auto* a = static_cast<Actor*>(o);
      if (a->flags.load(std::memory_order_relaxed) & Object::kInHeap) {
        a->~Actor();  // drains its mailbox
        ActorHeap::free(a);
      } else {
        delete a;
      }
      break;
    }
    case ObjKind::Closure: {
      auto* c = static_cast<Closure*>(o);
      destroy_trailing(c, c->captures());
      break;
    }
    case ObjKind::Block: {
      auto* b = static_cast<BlockValue*>(o);
      destroy_trailing(b, b->captures());
      break;
    }
    case ObjKind::Native:
      return;  // immortal by construction; never reached
    case ObjKind::Envelope:
      delete static_cast<Envelope*>(o);  // an unsettled ticket abandons its delivery
      break;
    case ObjKind::Str: {
      auto* str = static_cast<Str*>(o);
      str->~Str();  // a slice releases the string it slices
      ::operator delete(static_cast<void*>(str));
      break;
    }
    case ObjKind::Map:
      delete static_cast<Map*>(o);
      break;
    case ObjKind::Lines:
      delete static_cast<Lines*>(o);
      break;
    case ObjKind::MapTrie:
      MapTrie::destroy(static_cast<MapTrie*>(o));
      break;
  }
  if (detail::count_objects.load(std::memory_order_relaxed)) [[unlikely]]
    detail::live_count.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace

namespace {
// True when none of the values is a heap object: freeing their holder
// cannot free anything else, so it needs no worklist (a closure over
// integers, as a BECOME per message leaves behind; a list cell of numbers).
bool only_immediates(const Value* v, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i)
    if (v[i].is_object()) return false;
  return true;
}
}  // namespace

namespace detail {

bool arm_pair_cache() noexcept {
  static const PairCacheKey cache_key;  // a function's static: made before the first pair is freed
  tl_pairs.armed = true;
  // For the first 32 keys of a process, setting one allocates nothing; if
  // it fails, this thread keeps no pairs.
  if (cache_key.made && pthread_setspecific(cache_key.key, &tl_pairs) == 0) return true;
  tl_pairs.count = PairCache::kMax;
  return false;
}

[[gnu::noinline]] void free_object(Object* o) {
  if (o->kind == ObjKind::Closure) {
    auto* c = static_cast<Closure*>(o);
    if (only_immediates(c->captures(), c->count)) return destroy(o);
  } else if (o->kind == ObjKind::Pair) {
    auto* p = static_cast<Pair*>(o);
    if (!p->head.is_object() && !p->tail.is_object()) return destroy(o);
  }
  FreeList& fl = tl_free;
  if (fl.active) {  // inside another free on this thread: defer, do not recurse
    fl.push(o);
    return;
  }
  fl.active = true;
  destroy(o);
  while (fl.n) destroy(fl.pop());
  if (fl.spill) {
    std::free(fl.spill);
    fl.spill = nullptr;
    fl.cap = 0;
  }
  fl.active = false;
}

}  // namespace detail

void clear_contents(Object* o) {
  switch (o->kind) {
    case ObjKind::Pair: {
      auto* p = static_cast<Pair*>(o);
      p->head = Value();
      p->tail = Value();
      break;
    }
    case ObjKind::Actor: {
      auto* a = static_cast<Actor*>(o);
      a->behavior = Value();
      while (Message* m = a->mailbox.pop()) free_message(m);
      break;
    }
    case ObjKind::Closure: {
      auto* c = static_cast<Closure*>(o);
      for (uint32_t i = 0; i < c->count; ++i) c->captures()[i] = Value();
      break;
    }
    case ObjKind::Block: {
      auto* b = static_cast<BlockValue*>(o);
      for (uint32_t i = 0; i < b->count; ++i) b->captures()[i] = Value();
      break;
    }
    case ObjKind::Envelope:
      static_cast<Envelope*>(o)->value = Value();
      break;
    case ObjKind::Str:
      static_cast<Str*>(o)->base = Value();
      break;
    case ObjKind::Map: {
      auto* m = static_cast<Map*>(o);
      m->trie = Value();
      m->items_slot() = Value();
      break;
    }
    case ObjKind::Lines: {
      auto* l = static_cast<Lines*>(o);
      l->base = l->text = l->next = Value();
      l->items_slot() = Value();
      break;
    }
    case ObjKind::MapTrie: {
      auto* t = static_cast<MapTrie*>(o);
      for (uint32_t i = 0; i < t->items; ++i) t->item_array()[i].key = t->item_array()[i].value = Value();
      for (uint32_t i = 0; i < t->nodes; ++i) t->node_array()[i] = Value();
      break;
    }
    case ObjKind::BigInt:
    case ObjKind::Native:
      break;
  }
}

void free_pinned(std::vector<Object*> objects) {
  std::sort(objects.begin(), objects.end());
  objects.erase(std::unique(objects.begin(), objects.end()), objects.end());
  for (Object* o : objects) clear_contents(o);
  for (Object* o : objects)
    if (o->kind != ObjKind::Native) destroy(o);  // built-in natives belong to the process
}

// ---------------------------------------------------------------- trailing arrays

static_assert(sizeof(Closure) % alignof(Value) == 0 && alignof(Closure) >= alignof(Value));
static_assert(sizeof(BlockValue) % alignof(Value) == 0 && alignof(BlockValue) >= alignof(Value));

Closure* Closure::make(const FunctionCode* code, uint32_t n) {
  void* mem = ::operator new(sizeof(Closure) + size_t(n) * sizeof(Value));
  auto* c = new (mem) Closure(code, n);
  construct_empty(c->captures(), n);
  return c;
}

BlockValue* BlockValue::make(const BlockCode* code, uint32_t n) {
  void* mem = ::operator new(sizeof(BlockValue) + size_t(n) * sizeof(Value));
  auto* b = new (mem) BlockValue(code, n);
  construct_empty(b->captures(), n);
  return b;
}

}  // namespace humus::rt
