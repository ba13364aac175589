// Printing values in the notation of LANGUAGE.md section 11 (humus_js's).
// Iterative: a list of ten million elements, or one nested ten thousand deep
// in its heads, prints without recursion on the C++ stack.
#pragma once

#include <cstddef>
#include <string>

#include "runtime/value.hpp"

namespace humus::rt {

void print_value(std::string& out, const Value& v);
std::string to_string(const Value& v);
// At most `limit` characters of it, then "..." if there was more (traces).
void print_value(std::string& out, const Value& v, size_t limit);
std::string to_string(const Value& v, size_t limit);
// Cuts `s` to its first `at` bytes (less, not to split a UTF-8 character) and appends "...".
void cut_text(std::string& s, size_t at);

}  // namespace humus::rt
