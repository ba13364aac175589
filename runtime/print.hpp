// Printing values in the notation of LANGUAGE.md section 11 (humus_js's).
// Iterative: a list of ten million elements, or one nested ten thousand deep
// in its heads, prints without recursion on the C++ stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "runtime/value.hpp"

namespace humus::rt {

// How much of a value a diagnostic, warning or trace line shows. A value
// past either bound is cut short with "... (N more)", N counting the
// elements (numbers, symbols, actors, ...) left out, so a failing event
// whose message is a million-element list writes one short line, not
// megabytes. 0 means no bound.
struct PrintLimit {
  uint64_t elements = 200;
  uint64_t bytes = 4096;
  // For a person reading a diagnostic rather than for the program: an actor
  // with its CREATE name (door@4, println@1), a function as <function
  // counter at t.hum:1>, a block as <block at t.hum:3>, a built-in function
  // as <built-in function add>, a packed string (str.hpp) "in quotes".
  // Values the program prints keep section 11.
  bool readable = false;
};
inline constexpr PrintLimit kNoPrintLimit{0, 0};

void print_value(std::string& out, const Value& v, const PrintLimit& limit = kNoPrintLimit);
std::string to_string(const Value& v, const PrintLimit& limit = kNoPrintLimit);
// Cuts `s` to its first `at` bytes (less, not to split a UTF-8 character) and appends "...".
void cut_text(std::string& s, size_t at);
// An actor as diagnostics name it: its CREATE name and number, greeter@4,
// or just @4 (values themselves print as @4, section 11).
struct Actor;
std::string actor_label(const Actor& a);

}  // namespace humus::rt
