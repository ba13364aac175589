// humus::Value (include/humus/value.hpp) over the runtime's rt::Value.
//
// The public Value holds the same 64-bit word as rt::Value and owns one
// reference to it, so crossing the boundary costs a reference count at most.
// Every function here converts at the edge and lets the runtime do the work.
#include <ostream>

#include "humus/value.hpp"
#include "runtime/equality.hpp"
#include "runtime/integer.hpp"
#include "runtime/packed.hpp"
#include "runtime/print.hpp"
#include "runtime/symbols.hpp"
#include "runtime/text.hpp"

namespace humus {

namespace {

static_assert(sizeof(Value) == sizeof(rt::Value));

// A borrowed view of a public Value's word (no reference taken or dropped).
const rt::Value& view(const Value& v) { return *reinterpret_cast<const rt::Value*>(&v); }

// Takes over the reference an rt::Value owns.
Value adopt(rt::Value v) {
  Value out = Value::from_raw_bits(v.bits());  // +1
  return out;                                  // v's own reference goes with v
}

[[noreturn]] void wrong_kind(const char* wanted, const Value& v) {
  std::string shown = v.to_string();
  if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
  throw Error(std::string("humus::Value: expected ") + wanted + ", got " + shown);
}

}  // namespace

Value::~Value() {
  rt::Value owned = rt::Value::from_immortal_bits(bits_);  // takes over our reference, drops it
}

Value::Value(const Value& other) noexcept : bits_(other.bits_) {
  rt::Value copy(view(other));
  copy.leak_bits();  // keep the reference just taken
}

Value& Value::operator=(const Value& other) noexcept {
  if (this != &other) {
    Value tmp(other);
    std::swap(bits_, tmp.bits_);
  }
  return *this;
}

Value& Value::operator=(Value&& other) noexcept {
  if (this != &other) {
    Value tmp(std::move(other));
    std::swap(bits_, tmp.bits_);
  }
  return *this;
}

Value Value::from_raw_bits(uint64_t bits) {
  static_assert(kUndefinedBits == 0x32);
  Value v;
  rt::Value src = rt::Value::from_immortal_bits(bits);
  rt::Value copy(src);  // +1 (no-op for immortal objects and immediates)
  src.leak_bits();      // `src` borrowed; it must not drop
  v.bits_ = copy.leak_bits();
  return v;
}

// ---------------------------------------------------------------- making

Value Value::integer(int64_t n) { return adopt(rt::make_integer(n)); }

Value Value::integer(std::string_view decimal) {
  bool negative = !decimal.empty() && decimal.front() == '-';
  std::string_view digits = negative ? decimal.substr(1) : decimal;
  bool ok = !digits.empty();
  for (char c : digits) ok = ok && c >= '0' && c <= '9';
  if (!ok) throw Error("humus::Value::integer: not a decimal integer: '" + std::string(decimal) + "'");
  return adopt(rt::parse_integer(digits, 10, negative));
}

Value Value::boolean(bool b) { return adopt(rt::Value::boolean(b)); }
Value Value::symbol(std::string_view name) { return adopt(rt::Value::symbol(rt::intern_symbol(name))); }
Value Value::nil() { return adopt(rt::Value::nil()); }

Value Value::pair(Value head, Value tail) { return adopt(rt::make_pair(view(head), view(tail))); }

Value Value::tuple(std::initializer_list<Value> elements) {
  return tuple(std::span<const Value>(elements.begin(), elements.size()));
}

Value Value::tuple(std::span<const Value> elements) {
  if (elements.empty()) return nil();
  Value out = elements.back();
  for (size_t i = elements.size() - 1; i-- > 0;) out = pair(elements[i], std::move(out));
  return out;
}

Value Value::list(std::initializer_list<Value> elements) {
  return list(std::span<const Value>(elements.begin(), elements.size()));
}

Value Value::list(std::span<const Value> elements) {
  rt::Value out = rt::Value::nil();
  for (size_t i = elements.size(); i-- > 0;) out = rt::make_pair(view(elements[i]), std::move(out));
  return adopt(std::move(out));
}

Value Value::string(std::string_view s) {
  std::optional<rt::Value> v = rt::text_string(s);
  if (!v) throw Error("humus::Value::string: invalid UTF-8");
  return adopt(std::move(*v));
}

// ---------------------------------------------------------------- reading

Kind Value::kind() const { return static_cast<Kind>(view(*this).kind()); }
static_assert(int(rt::Kind::Block) == int(Kind::Block) && int(rt::Kind::Pair) == int(Kind::Pair));

bool Value::is_list() const {
  rt::ListCursor c(view(*this));
  while (c.at_pair()) c.next();
  return c.rest().is_nil();
}

bool Value::is_string() const {
  rt::ListCursor c(view(*this));
  for (uint32_t cp; c.at_pair(); c.next())
    if (!c.head_code_point(cp)) return false;
  return c.rest().is_nil();
}

bool Value::fits_int64() const {
  const rt::Value& v = view(*this);
  return rt::integer_to_int64(v).has_value();
}

int64_t Value::as_int() const {
  const rt::Value& v = view(*this);
  auto n = rt::integer_to_int64(v);
  if (!n) wrong_kind(v.is_bigint() ? "an integer that fits in 64 bits" : "an integer", *this);
  return *n;
}

std::string Value::as_decimal() const {
  if (!is_integer()) wrong_kind("an integer", *this);
  return rt::integer_to_string(view(*this));
}

bool Value::as_bool() const {
  if (!is_boolean()) wrong_kind("a boolean", *this);
  return view(*this).is_true();
}

std::string Value::symbol_name() const {
  if (!is_symbol()) wrong_kind("a symbol", *this);
  return rt::symbol_name(view(*this).symbol_id());
}

Value Value::head() const {
  if (!is_pair()) wrong_kind("a pair", *this);
  const rt::Value& v = view(*this);
  if (!v.is_pair()) return adopt(rt::head(rt::expand(v)));  // a packed value (runtime/packed.hpp)
  return from_raw_bits(rt::head(v).bits());
}

Value Value::tail() const {
  if (!is_pair()) wrong_kind("a pair", *this);
  const rt::Value& v = view(*this);
  if (!v.is_pair()) return adopt(rt::tail(rt::expand(v)));
  return from_raw_bits(rt::tail(v).bits());
}

std::vector<Value> Value::to_vector() const {
  if (!is_list()) wrong_kind("a list", *this);
  std::vector<Value> out;
  for (rt::ListCursor c(view(*this)); c.at_pair(); c.next()) out.push_back(from_raw_bits(c.head().bits()));
  return out;
}

std::vector<Value> Value::tuple_elements(size_t n) const {
  std::vector<Value> out;
  if (n == 0) return out;
  rt::Value v = view(*this);
  for (size_t i = 0; i + 1 < n; ++i) {
    if (v.is_cons() && !v.is_pair()) v = rt::expand(v);
    if (!v.is_pair()) wrong_kind(("a " + std::to_string(n) + "-tuple").c_str(), *this);
    out.push_back(from_raw_bits(rt::head(v).bits()));
    rt::Value rest = rt::tail(v);
    v = std::move(rest);
  }
  out.push_back(adopt(std::move(v)));
  return out;
}

std::string Value::as_string() const {
  std::optional<std::string> text = rt::string_text(view(*this));
  if (!text) wrong_kind("a string (a list of code points)", *this);
  return std::move(*text);
}

std::string Value::to_string() const { return rt::to_string(view(*this)); }

bool operator==(const Value& a, const Value& b) { return rt::equal(view(a), view(b)); }

std::ostream& operator<<(std::ostream& out, const Value& v) { return out << v.to_string(); }

}  // namespace humus
