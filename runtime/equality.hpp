// Equality of section 2: structural for integers, booleans, NIL, ?, symbols
// and pairs; identity for actors, functions and blocks. And the total order
// of values that `compare` and the `map` module use (docs/language.md,
// "Ordering"). Both iterative; both read packed strings as lists.
#pragma once

#include <cstdint>

#include "runtime/value.hpp"

namespace humus::rt {

bool equal(const Value& a, const Value& b);
// -1, 0 or 1: ? < FALSE < TRUE < integers (by value) < symbols (by name) <
// NIL < pairs (head first, then tail) < actors (by number) < functions <
// blocks (by identity). 0 exactly when equal(a, b).
int order(const Value& a, const Value& b);
// A hash consistent with equal(): equal values (a packed string and the
// same list built by hand included) hash alike. Deterministic for the data
// kinds; actors hash by number, functions and blocks by identity.
uint64_t hash_value(const Value& v);

}  // namespace humus::rt
