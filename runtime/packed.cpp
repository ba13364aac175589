#include "runtime/packed.hpp"

#include <mutex>

#include "runtime/map_trie.hpp"
#include "runtime/text.hpp"

namespace humus::rt {

namespace {
const Value kNilValue = Value::nil();

}  // namespace

std::mutex& items_lock(const void* packed) {
  static std::mutex locks[64];
  return locks[(reinterpret_cast<uintptr_t>(packed) >> 6) % 64];
}

Value expand(const Value& v) {
  if (v.is_str()) return str_expand(v);
  if (v.is(ObjKind::Lines)) return lines_expand(v);
  return v.as<Map>()->items();
}

const Value& Map::items() const {
  std::lock_guard lock(items_lock(this));
  if (items_.empty()) items_ = map_items_of(trie);
  return items_;
}

Value Map::items_made() const {
  std::lock_guard lock(items_lock(this));
  return items_;
}

void Map::drop_items() { items_ = Value(); }

Map::~Map() = default;

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
    case ObjKind::Map:  // read as its list of items, made once
      v_ = &v_->as<Map>()->items();
      kind_ = Kind::Pair;
      return;
    case ObjKind::Lines:
      kind_ = Kind::Lines;
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

void ListCursor::next_packed() {
  switch (kind_) {
    case Kind::Str:
      if (++i_ < v_->as<Str>()->length) {
        cp_ = Value::small(v_->as<Str>()->at(i_));
        return;
      }
      v_ = &kNilValue;
      break;
    case Kind::Pair:
      v_ = &v_->as<Pair>()->tail;
      break;
    case Kind::Lines:  // on in its pairs
      v_ = &v_->as<Lines>()->items().as<Pair>()->tail;
      break;
    case Kind::None:
      return;
  }
  settle();
}

const Value& ListCursor::lines_head() const { return v_->as<Lines>()->items().as<Pair>()->head; }

void ListCursor::skip_lines() {
  v_ = &v_->as<Lines>()->owner()->next;
  settle();
}

void ListCursor::skip_str() {
  v_ = &kNilValue;
  settle();
}

uint64_t list_length(const Value& v0, const Value** end) {
  uint64_t n = 0;
  const Value* v = &v0;
  for (; v->is_pair(); v = &v->as<Pair>()->tail) ++n;  // the common case, without a cursor
  ListCursor c(*v);
  while (c.at_pair()) {
    if (const Str* s = c.str()) {  // a packed string's code points in one step
      n += s->length - c.index();
      c.skip_str();
      continue;
    }
    if (const Lines* l = c.lines()) {  // packed lines too
      n += l->count;
      c.skip_lines();
      continue;
    }
    ++n;
    c.next();
  }
  if (end) *end = &c.rest();
  return n;
}

}  // namespace humus::rt
