// The built-in functions of LANGUAGE.md section 9 (eq, not, add, div, ...).
// The built-in actors (println, timer, random) live with the runtime, since
// they send and print; these are pure functions of their argument.
#pragma once

#include <span>

#include "runtime/code.hpp"

namespace humus::rt {

// Every built-in function, created once per process and immortal.
// The compiler binds each to the global of the same name, and calls
// `fn2` directly for a two-argument call site.
std::span<Native* const> builtin_functions();

}  // namespace humus::rt
