#include "runtime/packed.hpp"

#include <new>

#include "runtime/text.hpp"

namespace humus::rt {

namespace {
const Value kNilValue = Value::nil();

// Freed map nodes kept by each thread for its next ones (at most kMax;
// none in sanitizer builds, which must see every free).
struct NodeCache {
#if defined(HUMUS_NO_PAIR_CACHE)
  static constexpr uint32_t kMax = 0;
#else
  static constexpr uint32_t kMax = 1024;
#endif
  void* head;
  uint32_t count;
  bool armed;
};
thread_local NodeCache tl_nodes{};

// Gives a thread's kept nodes back when it ends; later frees go straight
// to the allocator.
struct NodeCacheRelease {
  ~NodeCacheRelease() {
    NodeCache& c = tl_nodes;
    while (void* p = c.head) {
      c.head = *static_cast<void**>(p);
      ::operator delete(p);
    }
    c.count = NodeCache::kMax;
  }
};
}  // namespace

void* MapNode::operator new(size_t n) {
  NodeCache& c = tl_nodes;
  if (void* p = c.head) {
    c.head = *static_cast<void**>(p);
    --c.count;
    return p;
  }
  return ::operator new(n);
}

void MapNode::operator delete(void* p) {
  NodeCache& c = tl_nodes;
  if (c.count < NodeCache::kMax) {
    if (!c.armed) {
      static thread_local NodeCacheRelease release;
      (void)release;
      c.armed = true;
    }
    *static_cast<void**>(p) = c.head;
    c.head = p;
    ++c.count;
    return;
  }
  ::operator delete(p);
}

Value expand(const Value& v) {
  if (v.is_str()) return str_expand(v);
  const auto* n = v.as<MapNode>();
  return make_pair(n->size(), make_pair(n->key(), make_pair(n->value(), make_pair(n->left(), n->right()))));
}

bool head_tail(const Value& v, Value& h, Value& t) {
  if (v.is_pair()) {
    h = head(v);
    t = tail(v);
    return true;
  }
  if (!v.is_cons()) return false;
  Value pairs = expand(v);
  h = head(pairs);
  t = tail(pairs);
  return true;
}

void ListCursor::settle() {
  i_ = 0;
  if (!v_->is_object()) {
    kind_ = Kind::None;
    return;
  }
  switch (v_->object()->kind) {
    case ObjKind::Pair:
      kind_ = Kind::Pair;
      return;
    case ObjKind::Str:
      kind_ = Kind::Str;
      cp_ = Value::small(v_->as<Str>()->at(0));
      return;
    case ObjKind::MapNode:
      kind_ = Kind::Node;
      return;
    default:
      kind_ = Kind::None;
  }
}

bool ListCursor::head_code_point(uint32_t& cp) const {
  if (kind_ == Kind::Str) {
    cp = v_->as<Str>()->at(i_);
    return true;
  }
  const Value& h = head();
  if (!is_code_point(h)) return false;
  cp = uint32_t(h.small_value());
  return true;
}

void ListCursor::next() {
  switch (kind_) {
    case Kind::Str:
      if (++i_ < v_->as<Str>()->length) {
        cp_ = Value::small(v_->as<Str>()->at(i_));
        return;
      }
      v_ = &kNilValue;
      break;
    case Kind::Node:
      if (++i_ < MapNode::kHeads) return;
      v_ = &v_->as<MapNode>()->right();
      break;
    case Kind::Pair:
      v_ = &v_->as<Pair>()->tail;
      break;
    case Kind::None:
      return;
  }
  settle();
}

void ListCursor::skip_str() {
  v_ = &kNilValue;
  settle();
}

uint64_t list_length(const Value& v, const Value** end) {
  uint64_t n = 0;
  ListCursor c(v);
  while (c.at_pair()) {
    if (const Str* s = c.str()) {  // a packed string's code points in one step
      n += s->length - c.index();
      c.skip_str();
      continue;
    }
    ++n;
    c.next();
  }
  if (end) *end = &c.rest();
  return n;
}

}  // namespace humus::rt
