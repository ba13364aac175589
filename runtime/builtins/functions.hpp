// The built-in functions: those of LANGUAGE.md section 9 (eq, not, add,
// div, compare, ...) and the text functions of docs/scripting.md (text,
// split, format, ...). Each is a plain C++ function of its argument that
// gives ? for arguments of the wrong kind; none sends or prints, so they
// need no event. The built-in actors (println, timer, files, ...) are in
// devices.hpp.
#pragma once

#include <span>
#include <string_view>

#include "runtime/code.hpp"

namespace humus::rt {

// One built-in function: its C++ code and what the language server's hover
// and the REPL say of it.
struct BuiltinFunction {
  const char* name;
  Native::Fn1 fn;   // f(arg)
  Native::Fn2 fn2;  // f(a, b) without making the pair, or null
  const char* doc;  // "`add(a, b)`: a + b, for integers of any size"
};

// Every built-in function, in one order: the functions of section 9 first
// (kCoreBuiltins of them: the compiler has VM instructions for several, and
// binding one of their names again turns those off), then the text
// functions. Created once per process and immortal; the compiler binds each
// to the global of the same name and calls `fn2` directly for a
// two-argument call site.
std::span<Native* const> builtin_functions();
std::span<const BuiltinFunction> builtin_table();  // the same order
inline constexpr size_t kCoreBuiltins = 21;

// The text functions (text.cpp); the prelude's list functions in C++
// (lists.cpp; named native_*, bound by stdlib/prelude.hum); and the native
// half of the `map` module (map.cpp; native_map_*, bound by stdlib/map.hum).
std::span<const BuiltinFunction> text_functions();
std::span<const BuiltinFunction> list_functions();
std::span<const BuiltinFunction> map_functions();

// The one-argument form of a two-argument built-in: f((a, b)) = f2(a, b)
// (a packed string is the pair of its first code point and the rest).
Value apply_to_pair(Native::Fn2 f, const Value& arg);
template <Native::Fn2 F>
Value on_pair(const Value& arg) {
  return apply_to_pair(F, arg);
}

// A table's entries: a function of one argument, and one of two (called
// directly with both at a two-argument call site, else on a pair).
constexpr BuiltinFunction one(const char* name, Native::Fn1 f, const char* doc) { return {name, f, nullptr, doc}; }
template <Native::Fn2 F>
constexpr BuiltinFunction two(const char* name, const char* doc) {
  return {name, on_pair<F>, F, doc};
}

}  // namespace humus::rt
