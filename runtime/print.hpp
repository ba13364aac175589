// Printing values in the notation of LANGUAGE.md section 11 (humus_js's).
// Iterative: a list of ten million elements, or one nested ten thousand deep
// in its heads, prints without recursion on the C++ stack.
#pragma once

#include <string>

#include "runtime/value.hpp"

namespace humus::rt {

void print_value(std::string& out, const Value& v);
std::string to_string(const Value& v);
// The same for a diagnostic: cut short (with "...") when long.
std::string describe(const Value& v);
// An actor as diagnostics name it: its CREATE name and number, greeter@4,
// or just @4 (values themselves print as @4, section 11).
struct Actor;
std::string actor_label(const Actor& a);

}  // namespace humus::rt
