// The VM's call protocol (calls.cpp), in the manner of Lua's ldo.c:
// entering the loop from C++ and leaving it on a failure, fitting arguments
// to a parameter, calling what is not compiled Humus, and the reports of
// calls that go wrong. The loop itself (run) is in vm.cpp.
#pragma once

#include <cstdint>

#include "interpreter/engine/frames.hpp"
#include "runtime/context.hpp"
#include "runtime/errors.hpp"
#include "runtime/source_loc.hpp"

namespace humus::engine::vm {

// The dispatch loop (vm.cpp): runs the innermost frame until the entry
// frame below it ends; what it ends with is in `result` (a value frame's).
Outcome run(VmState& vm, rt::Context& cx, Value& result);

// Runs code from C++: a frame for `proto` at the top of the stack, with the
// function or block `fn` (kept alive by the caller, so the frame holds it
// uncounted; may be null at top level) below it and the n argument values
// (taken over) in place. A failure releases every register it used.
Outcome enter(rt::Context& cx, const Proto& proto, uint32_t entry, Kind kind, const rt::Object* fn, Value* args,
              uint32_t n, Value& result, const rt::SourceLoc& loc);

// Makes the n values at args[0..n) what a parameter of `arity` takes: one
// value (several become their tuple) or `arity` values (a tuple taken
// apart: arity-1 pairs, the last element the rest). False when they do not
// fit; args[0..max(n, arity)) must be registers (they are left valid).
bool adapt(Value* args, uint32_t n, uint32_t arity);

// fn applied to args (taken over), when fn is not compiled Humus code: a
// built-in, or a host's function (which may enter the VM again, so nothing
// it is given lives on the VM stack).
Value call_foreign(const Value& fn, Value* args, uint32_t n, rt::Context& cx, const rt::SourceLoc& loc);

// A statement's value that is neither a block nor ? does nothing (LANGUAGE.md
// section 7); -W and --trace report it.
[[gnu::noinline]] void ignored_value(const Value& v, rt::Context& cx, const rt::SourceLoc& loc);

// A runtime error raised without a location (a built-in's "integer too
// large"): reported at the instruction that called the built-in.
[[noreturn, gnu::noinline]] void rethrow_at(rt::EventError& e, const rt::SourceLoc& loc);

[[noreturn, gnu::noinline]] void too_deep(const rt::SourceLoc& loc);

// The safe point every kSafePointTicks calls: interrupts, --max-steps.
[[gnu::noinline]] void safe_point(rt::Context& cx, const rt::SourceLoc& loc);

}  // namespace humus::engine::vm
