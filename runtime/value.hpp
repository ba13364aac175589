// Values: one 64-bit tagged word (LANGUAGE.md section 2).
//
// The common values never touch the heap or a reference count:
//
//   ...xxxxxxx1   small integer, 63-bit two's complement (n << 1 | 1)
//   ...ssss0110   symbol with id s (interned, see symbols.hpp)
//   ...00kk0010   constant: k = 0 NIL, 1 TRUE, 2 FALSE, 3 ? (undefined)
//   ...00001010   "empty": an unbound slot, a moved-from value (never seen by programs)
//   ...pppppp00   pointer to a heap Object (8-byte aligned, never null)
//
// Empty is not 0 so that "is an object" is one test of the low bits:
// every copy, move and drop of a Value asks it.
//
// Heap objects (pairs, big integers, actors, closures, blocks, natives) carry
// an atomic reference count, because values cross worker threads freely.
// Objects flagged immortal (built-ins, values stored in globals) are never
// counted: a shared global must not turn every use into a cache-line
// transfer between cores. Freeing is iterative (see value.cpp), so dropping
// a list of ten million elements does not recurse on the C++ stack.
#pragma once

#include <atomic>
#include <cstdint>
#include <new>
#include <utility>
#include <vector>

namespace humus::rt {

enum class ObjKind : uint8_t {
  Pair,
  BigInt,
  Actor,
  Closure,   // a function: compiled code + captured values
  Block,     // a block value: compiled statements + saved frame
  Native,    // a built-in function implemented in C++
  Envelope,  // a message delivered from a topic, unwrapped before any behavior sees it (foreign.hpp)
  Str,       // a packed string: behaves as the list of its code points (packed.hpp)
  Map,       // a packed map: behaves as the list of its items (key, value) in key order (packed.hpp)
  MapTrie,   // a node of a map's trie (map_trie.hpp): held by maps only, never seen by programs
  Lines,     // packed lines: behaves as a list of strings (lines.hpp)
};

struct Object;
namespace detail {
void free_object(Object* o);  // at the last release (value.cpp)
}

// Leak checking: a count of live heap objects, off by default. Counting is
// switched on once, before the objects of interest exist (tests do it in a
// static initialiser); while off it costs one relaxed load of a read-only
// flag per allocation and free, so the hot path never bounces a shared
// counter between cores.
namespace detail {
extern std::atomic<bool> count_objects;
extern std::atomic<int64_t> live_count;
}  // namespace detail
void enable_live_object_count();
bool live_object_count_enabled();
int64_t live_objects();  // objects made minus objects freed while counting was on

struct Object {
  static constexpr uint8_t kImmortal = 1;
  static constexpr uint8_t kForeign = 2;  // an actor standing for a remote actor or a topic (foreign.hpp)
  static constexpr uint8_t kInHeap = 4;   // an actor in an ActorHeap's chunk (actor_heap.hpp), not from new
  static constexpr uint8_t kConsole = 8;  // println, print, testing_pass: sends are written at commit (context.hpp)

  // Six bytes: a derived kind may use the two bytes of tail padding (Actor
  // keeps its scheduling state there, to fit in one cache line).
  std::atomic<uint32_t> refs{1};
  ObjKind kind;
  std::atomic<uint8_t> flags{0};

  explicit Object(ObjKind k) : kind(k) {
    if (detail::count_objects.load(std::memory_order_relaxed)) [[unlikely]]
      detail::live_count.fetch_add(1, std::memory_order_relaxed);
  }
  bool immortal() const { return flags.load(std::memory_order_relaxed) & kImmortal; }
  void make_immortal() { flags.fetch_or(kImmortal, std::memory_order_relaxed); }
  bool foreign() const { return flags.load(std::memory_order_relaxed) & kForeign; }

  void retain() {
    // Relaxed: a new reference is made from an existing one, so the object
    // is already visible to this thread.
    if (!immortal()) refs.fetch_add(1, std::memory_order_relaxed);
  }
  void release() {
    if (immortal()) return;
    // acq_rel: the release half publishes this thread's last use of the object,
    // the acquire half (relevant to the thread that frees) sees everyone else's.
    if (refs.fetch_sub(1, std::memory_order_acq_rel) == 1) detail::free_object(this);
  }
};

// The kinds a program can observe (is_number, printing, equality).
enum class Kind : uint8_t { Integer, Boolean, Nil, Undefined, Symbol, Pair, Actor, Function, Block };

class Value {
 public:
  static constexpr int64_t kSmallMax = (int64_t(1) << 62) - 1;
  static constexpr int64_t kSmallMin = -(int64_t(1) << 62);

  constexpr Value() : bits_(kEmpty) {}  // "empty": an unbound slot, never seen by programs
  // constexpr (never evaluated as such for an object) so that the constexpr
  // factories below may return a Value in C++20.
  constexpr ~Value() { drop(); }
  Value(const Value& o) : bits_(o.bits_) { retain(); }
  Value(Value&& o) noexcept : bits_(o.bits_) { o.bits_ = kEmpty; }
  Value& operator=(const Value& o) {
    if (this != &o) {
      Value tmp(o);
      swap(tmp);
    }
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      drop();
      bits_ = o.bits_;
      o.bits_ = kEmpty;
    }
    return *this;
  }
  void swap(Value& o) noexcept { std::swap(bits_, o.bits_); }

  // ---- constants
  static constexpr Value nil() { return Value(kNil); }
  static constexpr Value truth() { return Value(kTrue); }
  static constexpr Value falsity() { return Value(kFalse); }
  static constexpr Value undefined() { return Value(kUndef); }
  static constexpr Value boolean(bool b) { return Value(b ? kTrue : kFalse); }
  static constexpr Value symbol(uint32_t id) { return Value((uint64_t(id) << 4) | 0x6); }
  // A small integer; the caller guarantees kSmallMin <= n <= kSmallMax.
  static constexpr Value small(int64_t n) { return Value((uint64_t(n) << 1) | 1); }
  static constexpr bool fits_small(int64_t n) { return n >= kSmallMin && n <= kSmallMax; }

  // Takes over one reference to `o` (as returned by a constructor).
  static Value adopt(Object* o) { return Value(reinterpret_cast<uint64_t>(o)); }
  // Makes a new reference to `o`.
  static Value share(Object* o) {
    o->retain();
    return Value(reinterpret_cast<uint64_t>(o));
  }

  // ---- tests
  bool empty() const { return bits_ == kEmpty; }
  bool is_small() const { return bits_ & 1; }
  constexpr bool is_object() const { return (bits_ & 3) == 0; }
  bool is_nil() const { return bits_ == kNil; }
  bool is_true() const { return bits_ == kTrue; }
  bool is_false() const { return bits_ == kFalse; }
  bool is_boolean() const { return bits_ == kTrue || bits_ == kFalse; }
  bool is_undefined() const { return bits_ == kUndef; }
  bool is_symbol() const { return (bits_ & 0xF) == 0x6; }
  bool is(ObjKind k) const { return is_object() && object()->kind == k; }
  // A Pair object. Packed values are pairs to programs too (packed.hpp):
  // is_cons() asks for a pair of any kind.
  bool is_pair() const { return is(ObjKind::Pair); }
  bool is_str() const { return is(ObjKind::Str); }
  bool is_cons() const {
    return is_object() && (object()->kind == ObjKind::Pair || object()->kind == ObjKind::Str ||
                           object()->kind == ObjKind::Map || object()->kind == ObjKind::Lines);
  }
  bool is_bigint() const { return is(ObjKind::BigInt); }
  bool is_integer() const { return is_small() || is_bigint(); }
  bool is_actor() const { return is(ObjKind::Actor); }
  bool is_function() const { return is(ObjKind::Closure) || is(ObjKind::Native); }
  bool is_block() const { return is(ObjKind::Block); }
  Kind kind() const;  // the empty Value reports Undefined

  // ---- access (preconditions: the matching test holds)
  int64_t small_value() const { return int64_t(bits_) >> 1; }
  uint32_t symbol_id() const { return uint32_t(bits_ >> 4); }
  Object* object() const { return reinterpret_cast<Object*>(bits_); }
  template <class T>
  T* as() const {
    return static_cast<T*>(object());
  }
  uint64_t bits() const { return bits_; }

  // Identity of the word: equal for equal immediates and for the same object.
  bool same(const Value& o) const { return bits_ == o.bits_; }

  // A Value for bits whose object (if any) is immortal, as in a global
  // slot, where 0 means unbound: empty.
  static Value from_immortal_bits(uint64_t b) { return Value(b ? b : kEmpty); }
  // The word of the empty Value, for code that manages words itself.
  static constexpr uint64_t empty_bits() { return kEmpty; }
  // Gives up ownership of the word without releasing it.
  uint64_t leak_bits() {
    uint64_t b = bits_;
    bits_ = kEmpty;
    return b;
  }

  // Takes over the reference `b` holds (an object's, or an immediate) and
  // releases what this held: for code that manages words itself (the VM).
  void put_bits(uint64_t b) {
    const uint64_t old = bits_;
    bits_ = b;
    if ((old & 3) == 0) reinterpret_cast<Object*>(old)->release();
  }
  // A new reference to the word's object, if it is one (for put_bits).
  static uint64_t retain_bits(uint64_t b) {
    if ((b & 3) == 0) reinterpret_cast<Object*>(b)->retain();
    return b;
  }

  // Gives up ownership without releasing (for intrusive structures).
  Object* release_object() {
    Object* o = object();
    bits_ = kEmpty;
    return o;
  }

 private:
  static constexpr uint64_t kNil = 0x02;
  static constexpr uint64_t kTrue = 0x12;
  static constexpr uint64_t kFalse = 0x22;
  static constexpr uint64_t kUndef = 0x32;
  static constexpr uint64_t kEmpty = 0x0A;

  explicit constexpr Value(uint64_t b) : bits_(b) {}
  void retain() const {
    if (is_object()) object()->retain();
  }
  constexpr void drop() {
    if (is_object()) object()->release();
  }

  uint64_t bits_;
};

static_assert(sizeof(Value) == 8);

// Constructs n empty Values at `v`. Frames and closures have a handful of
// slots: stores, not a call to memset (which the loop would become).
inline void construct_empty(Value* v, uint32_t n) {
  switch (n) {
    case 4:
      new (&v[3]) Value();
      [[fallthrough]];
    case 3:
      new (&v[2]) Value();
      [[fallthrough]];
    case 2:
      new (&v[1]) Value();
      [[fallthrough]];
    case 1:
      new (&v[0]) Value();
      [[fallthrough]];
    case 0:
      return;
    default:
      for (uint32_t i = 0; i < n; ++i) new (&v[i]) Value();
  }
}

// Frees objects that were made immortal (pinned) by their owner, when the
// owner ends and nothing else can reach them any more. Two phases: first
// every object lets go of what it holds (freeing what only it kept alive),
// then the emptied objects themselves go, so no freed object is ever
// touched, whatever references the pinned objects had among themselves.
// `objects` may hold duplicates.
void free_pinned(std::vector<Object*> objects);
// Lets go of everything `o` holds (its fields become empty), leaving `o`
// itself: the first phase of free_pinned, and how the cycle collector
// breaks a garbage cycle.
void clear_contents(Object* o);

// ---------------------------------------------------------------- pairs

// Freed pairs kept by each thread for its next pairs (Pair::operator new):
// most pairs are made and freed within one event, and a pop here is a few
// instructions where the allocator (and --max-memory's count of the block's
// size) takes about fifty. At most kMax are kept; the blocks stay counted as
// in use while kept. Off in sanitizer builds, which must see every free.
namespace detail {
struct PairCache {
#if defined(HUMUS_NO_PAIR_CACHE)
  static constexpr uint32_t kMax = 0;
#else
  static constexpr uint32_t kMax = 4096;
#endif
  void* head;
  uint32_t count;
  bool armed;  // the thread's exit gives the kept blocks back (value.cpp)
};
inline thread_local PairCache tl_pairs{};  // constant-initialized: no guard on access
bool arm_pair_cache() noexcept;            // value.cpp; false: this thread keeps no pairs
}  // namespace detail

struct Pair : Object {
  Value head;
  Value tail;
  Pair(Value h, Value t) : Object(ObjKind::Pair), head(std::move(h)), tail(std::move(t)) {}

  static void* operator new(size_t n) {
    detail::PairCache& c = detail::tl_pairs;
    if (void* p = c.head) {
      c.head = *static_cast<void**>(p);
      --c.count;
      return p;
    }
    return ::operator new(n);
  }
  static void operator delete(void* p) {
    detail::PairCache& c = detail::tl_pairs;
    if (c.count < detail::PairCache::kMax) [[likely]] {
      if (!c.armed && !detail::arm_pair_cache()) [[unlikely]]
        return ::operator delete(p);
      *static_cast<void**>(p) = c.head;
      c.head = p;
      ++c.count;
      return;
    }
    ::operator delete(p);
  }
};

inline Value make_pair(Value head, Value tail) { return Value::adopt(new Pair(std::move(head), std::move(tail))); }

// Frees a pair whose head and tail were moved out, held by its last
// reference (taken over here): no counting, nothing left to release.
inline void free_emptied_pair(Pair* p) {
  if (detail::count_objects.load(std::memory_order_relaxed)) [[unlikely]]
    detail::live_count.fetch_sub(1, std::memory_order_relaxed);
  Pair::operator delete(static_cast<void*>(p));
}
inline const Value& head(const Value& p) { return p.as<Pair>()->head; }
inline const Value& tail(const Value& p) { return p.as<Pair>()->tail; }

}  // namespace humus::rt
