// The VM: runs compiled code (proto.hpp). engine/README.md explains the
// execution model; these are its entry points for the rest of the program.
//
// Each context (one per worker thread, one for top-level statements) has a
// stack of registers and a stack of frames, made on first use. A Humus call
// pushes a frame and runs on in the same loop, so deep recursion costs heap,
// not C++ stack; a call in tail position reuses the frame. Entering the VM
// from C++ (an event, a host's call, a built-in that applies a function)
// runs until the frame it pushed ends, and leaves nothing behind: on a
// failure (a C++ exception, rt::EventError) every register it used is
// released before the exception goes on.
#pragma once

#include <cstdint>
#include <string>

#include "interpreter/engine/proto.hpp"
#include "runtime/context.hpp"
#include "runtime/print.hpp"

namespace humus::engine {

// Applies any function value to arguments (taken over): n = 1 is one
// argument in args[0], n >= 2 the tuple (args[0], ..., args[n-1]). `loc` is
// where an error about fn (not a function) is reported.
Value call_value(const Value& fn, Value* args, uint32_t n, rt::Context& cx, const rt::SourceLoc& loc);
// The same for one argument that stays the caller's.
Value apply_function(const Value& fn, const Value& arg, rt::Context& cx, const rt::SourceLoc& loc);
// Runs `v` as a statement: a block value runs, anything else does nothing
// (reported at `loc` with -W when it is not ?).
void run_statement_value(Value v, const rt::SourceLoc& loc, rt::Context& cx);
// Runs a top-level statement's code from `entry` (its value entry gives the
// value of an expression statement; its statement entry gives nothing).
Value run_top(const Proto& proto, uint32_t entry, rt::Context& cx);
// A function that captures nothing (a top-level DEF's) as a value.
Value function_value(const LambdaCode& code);

// A value for an error message: printed, and cut short past the runtime's
// bound for diagnostics (RuntimeOptions::shown).
std::string describe(const Value& v, const rt::Context& cx);
// (vals[0], ..., vals[n-1]) as right-nested pairs, taking the values over.
Value tuple_of(Value* vals, uint32_t n);

}  // namespace humus::engine
