// humus::Value: a Humus value as seen from C++ (LANGUAGE.md section 2).
//
// A Value is one machine word, like the runtime's own values: small integers,
// booleans, NIL, ?, and symbols are immediate; pairs, big integers, actors
// and functions are reference-counted heap objects shared with the runtime.
// The host never sees the layout: every operation is a call into the
// library, so the representation can change without breaking hosts.
//
// Conversions go both ways. Making a value never needs a Runtime; reading it
// ("pattern-friendly" accessors) throws humus::Error when the value is not of
// the kind asked for, so `v.as_int()` either gives the integer or says why not.
//
// Lifetime: a Value holding a function or an actor, or one read from a
// global, must not outlive the Runtime it came from. Plain data made by the
// host (integers, symbols, lists, strings) has no such tie.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "humus/export.hpp"

namespace humus {

// A misuse of the API: the wrong kind of value, a bad argument, or a call on
// a Runtime that was shut down.
class HUMUS_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a value is, as a program can observe it (is_number, printing, ...).
enum class Kind { Integer, Boolean, Nil, Undefined, Symbol, Pair, Actor, Function, Block };

class HUMUS_API Value {
 public:
  Value() noexcept : bits_(kUndefinedBits) {}  // ?
  ~Value();
  Value(const Value& other) noexcept;
  Value(Value&& other) noexcept : bits_(other.bits_) { other.bits_ = kUndefinedBits; }
  Value& operator=(const Value& other) noexcept;
  Value& operator=(Value&& other) noexcept;

  // Any C++ integer converts implicitly: Value::list({1, 2, 3}).
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Value(T n) : Value(from_integral(n)) {}

  // ---- making values
  static Value integer(int64_t n);
  // Decimal digits with an optional leading '-', of any length (big integers).
  static Value integer(std::string_view decimal);
  static Value boolean(bool b);
  static Value symbol(std::string_view name);  // #name
  static Value nil();                          // NIL
  static Value undefined() { return Value(); } // ?
  static Value pair(Value head, Value tail);   // (head, tail)
  // (a, b, c) is (a, (b, c)): tuples nest to the right. One element is the
  // element itself; none is NIL.
  static Value tuple(std::initializer_list<Value> elements);
  static Value tuple(std::span<const Value> elements);
  // [a, b] is (a, (b, NIL)).
  static Value list(std::initializer_list<Value> elements);
  static Value list(std::span<const Value> elements);
  // A string is the list of its code points (UTF-8 in, throws on bad UTF-8).
  static Value string(std::string_view utf8);

  // ---- what it is
  Kind kind() const;
  bool is_integer() const { return kind() == Kind::Integer; }
  bool is_boolean() const { return kind() == Kind::Boolean; }
  bool is_nil() const { return kind() == Kind::Nil; }
  bool is_undefined() const { return kind() == Kind::Undefined; }
  bool is_symbol() const { return kind() == Kind::Symbol; }
  bool is_pair() const { return kind() == Kind::Pair; }
  bool is_actor() const { return kind() == Kind::Actor; }
  bool is_function() const { return kind() == Kind::Function; }
  bool is_list() const;    // NIL or pairs ending in NIL
  bool is_string() const;  // a list of valid code points
  bool fits_int64() const;

  // ---- reading it (each throws humus::Error when the kind is wrong)
  int64_t as_int() const;           // also when it does not fit in 64 bits
  std::string as_decimal() const;   // an integer of any size, in decimal
  bool as_bool() const;
  std::string symbol_name() const;  // without the '#'
  Value head() const;               // of a pair
  Value tail() const;
  std::vector<Value> to_vector() const;  // the elements of a list
  // The first n-1 components of an n-tuple and its last tail: (a, b, c) with n = 3.
  std::vector<Value> tuple_elements(size_t n) const;
  std::string as_string() const;    // a string, as UTF-8

  // Printed as LANGUAGE.md section 11 says: `1, 2, NIL`, `#ok`, `@3`, `?`.
  std::string to_string() const;

  // eq (structural equality, identity for actors and functions).
  friend bool operator==(const Value& a, const Value& b);

  // For the library's own use: the runtime's word, and a Value taking one
  // (new) reference to it.
  uint64_t raw_bits() const { return bits_; }
  static Value from_raw_bits(uint64_t bits);

 private:
  template <class T>
  static Value from_integral(T n) {
    if constexpr (std::is_signed_v<T> || sizeof(T) < sizeof(int64_t)) return integer(int64_t(n));
    else return n <= uint64_t(INT64_MAX) ? integer(int64_t(n)) : integer(std::to_string(n));
  }
  static constexpr uint64_t kUndefinedBits = 0x32;  // checked against the runtime in embed_value.cpp
  uint64_t bits_;
};

HUMUS_API bool operator==(const Value& a, const Value& b);
HUMUS_API std::ostream& operator<<(std::ostream& out, const Value& v);

}  // namespace humus
