#include "runtime/lines.hpp"

#include <algorithm>
#include <mutex>

#include "runtime/packed.hpp"
#include "runtime/str.hpp"

namespace humus::rt {

namespace {

// An owner packs lines until its text reaches this many bytes: a line kept
// alive keeps at most about this much, and a wide character (past U+00FF)
// makes only its own owner four bytes a code point.
constexpr size_t kOwnerBytes = size_t(1) << 20;

// A slice of `owner`: lines [from, from + count).
Value slice(const Lines* owner, uint32_t from, uint32_t count) {
  auto* l = new Lines();
  l->from = from;
  l->count = count;
  l->base = Value::share(const_cast<Lines*>(owner));
  return Value::adopt(l);
}

}  // namespace

Value Lines::line(uint32_t i) const {
  const Lines* o = owner();
  const uint32_t a = o->starts[i], b = o->starts[i + 1];
  return a == b ? Value::nil() : str_slice(o->text, a, b - a);
}

// The pairs of lines [from, from + k) ending in `tail`.
static Value pairs_of(const Lines& l, uint32_t k, Value tail) {
  const Lines* o = l.owner();
  for (uint32_t i = k; i-- > 0;) tail = make_pair(o->line(l.from + i), std::move(tail));
  return tail;
}

const Value& Lines::items() const {
  std::lock_guard lock(items_lock(this));
  if (items_.empty()) items_ = pairs_of(*this, count, owner()->next);
  return items_;
}

Value lines_expand(const Value& v) {
  const Lines* l = v.as<Lines>();
  const Lines* o = l->owner();
  const uint32_t k = std::min(l->count, kExpandChunk);
  Value rest = k < l->count ? slice(o, l->from + k, l->count - k) : o->next;
  return pairs_of(*l, k, std::move(rest));
}

Value lines_rest(const Value& v, uint32_t k) {
  const Lines* l = v.as<Lines>();
  return k == 0 ? v : slice(l->owner(), l->from + k, l->count - k);
}

bool LinesBuilder::add(std::string_view utf8) {
  std::optional<Utf8Shape> shape = utf8_shape(utf8);
  if (!shape) return false;
  push(utf8, *shape);
  return true;
}

void LinesBuilder::push(std::string_view utf8, const Utf8Shape& shape) {
  // An owner's text is one Str: seal before it would pass a Str's length.
  if (code_points_ + shape.code_points > kMaxStrLength) seal();
  if (starts_.empty()) starts_.push_back(0);
  text_.append(utf8);
  code_points_ += shape.code_points;
  wide_ = wide_ || shape.wide;
  ascii_ = ascii_ && shape.ascii;
  starts_.push_back(uint32_t(code_points_));
  ++total_;
  if (text_.size() >= kOwnerBytes) seal();
}

void LinesBuilder::seal() {
  if (starts_.size() < 2) return;
  auto* l = new Lines();
  Value owner = Value::adopt(l);
  l->count = uint32_t(starts_.size() - 1);
  l->text = str_from_shaped_utf8(text_, Utf8Shape{code_points_, wide_, ascii_});
  l->starts = std::move(starts_);
  l->next = Value::nil();
  owners_.push_back(std::move(owner));
  text_.clear();
  starts_.clear();
  code_points_ = 0;
  wide_ = false;
  ascii_ = true;
}

Value LinesBuilder::finish() {
  seal();
  Value list = Value::nil();
  for (size_t i = owners_.size(); i-- > 0;) {
    owners_[i].as<Lines>()->next = std::move(list);
    list = std::move(owners_[i]);
  }
  owners_.clear();
  total_ = 0;
  return list;
}

}  // namespace humus::rt
