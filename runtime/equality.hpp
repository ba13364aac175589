// Equality of section 2: structural for integers, booleans, NIL, ?, symbols
// and pairs; identity for actors, functions and blocks. Iterative.
#pragma once

#include "runtime/value.hpp"

namespace humus::rt {

bool equal(const Value& a, const Value& b);

}  // namespace humus::rt
