// The seam between the compiler and the runtime.
//
// The interpreter compiles every lambda into a FunctionCode and every block
// literal into a BlockCode; the runtime only ever calls them through these
// two interfaces. A function *value* is a Closure: the code plus the values
// it captured (flat closures: each captured variable is copied once, when
// the closure is made, so a body reads it at a fixed index with no lookup).
// A block *value* is a BlockValue, made the same way: the code plus the
// values of the names it uses from where it was written.
#pragma once

#include <cstdint>
#include <new>
#include <string>

#include "runtime/source_loc.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

struct Context;
struct Closure;
struct BlockValue;

class FunctionCode {
 public:
  explicit FunctionCode(SourceLoc where) : loc(where) {}
  virtual ~FunctionCode() = default;
  // Applies the function: its result, or ? when `arg` does not match the parameter pattern.
  virtual Value apply(const Closure& self, const Value& arg, Context& cx) const = 0;
  // Applies the function to a message and runs the block it yields as the body of
  // the current message-event. False when the message did not match (unhandled).
  virtual bool run_behavior(const Closure& self, const Value& msg, Context& cx) const = 0;

  // Set by code that can take part in the interpreter's tail-call loop.
  bool tail_callable = false;
  // How many arguments a call may pass for the interpreter to enter the
  // code at once (no tuple to make or take apart, no factory): one
  // comparison on the call's path. kNoDirect for other code.
  static constexpr uint32_t kNoDirect = UINT32_MAX;
  uint32_t direct_arity = kNoDirect;
  // A built-in actor's behavior (NativeBehaviorCode).
  bool native = false;

  SourceLoc loc;
  // The name it was defined under (DEF f, and the behavior a DEF f(...) AS
  // \msg.[...] gives), or empty: traces and diagrams name actors by it.
  std::string name;
};

// The code of a block literal. The runtime only carries block values
// around (and prints them); the interpreter, which made them, runs them.
class BlockCode {
 public:
  explicit BlockCode(SourceLoc where) : loc(where) {}
  virtual ~BlockCode() = default;

  SourceLoc loc;
};

struct Actor;

// A behavior written in C++ (the built-in actors, runtime/builtins/devices.hpp): an actor with one has
// a Closure over NativeBehaviorCode as its behavior, like any other actor.
using NativeBehavior = void (*)(Actor& self, const Value& msg, Context& cx);
class NativeBehaviorCode final : public FunctionCode {
 public:
  NativeBehaviorCode(NativeBehavior fn, const char* name_) : FunctionCode(SourceLoc{}), fn_(fn) {
    name = name_;
    native = true;
  }
  // Called as a function (it never is: Humus code cannot read a behavior), it gives ?.
  Value apply(const Closure&, const Value&, Context&) const override { return Value::undefined(); }
  bool run_behavior(const Closure& self, const Value& msg, Context& cx) const override;
  // Runs it for `self` from another event (the console's sends, at commit).
  void call(Actor& self, const Value& msg, Context& cx) const { fn_(self, msg, cx); }

 private:
  NativeBehavior fn_;
};

// Objects with a trailing array of Values, allocated in one piece: a
// closure and a block value each hold their code and the values they
// captured. Aligned as a Value, so the array right after them is, also
// where pointers are 4 bytes (wasm32; on x86-64 this changes nothing).
struct alignas(Value) Closure : Object {
  const FunctionCode* code;
  uint32_t count;
  Value* captures() { return reinterpret_cast<Value*>(this + 1); }
  const Value* captures() const { return reinterpret_cast<const Value*>(this + 1); }

  // A closure with `n` empty capture slots, to be filled by the caller.
  static Closure* make(const FunctionCode* code, uint32_t n);

 private:
  Closure(const FunctionCode* c, uint32_t n) : Object(ObjKind::Closure), code(c), count(n) {}
};

// A block value: its code and the values it captured where it was made.
struct alignas(Value) BlockValue : Object {
  const BlockCode* code;
  uint32_t count;
  Value* captures() { return reinterpret_cast<Value*>(this + 1); }
  const Value* captures() const { return reinterpret_cast<const Value*>(this + 1); }

  // A block with `n` empty capture slots, to be filled by the caller.
  static BlockValue* make(const BlockCode* code, uint32_t n);

 private:
  BlockValue(const BlockCode* c, uint32_t n) : Object(ObjKind::Block), code(c), count(n) {}
};

// A built-in function written in C++. `fn2`, when set, takes the two halves
// of a pair argument directly, so `add(a, b)` needs no pair allocation.
struct Native : Object {
  using Fn1 = Value (*)(const Value& arg);
  using Fn2 = Value (*)(const Value& a, const Value& b);
  const char* name;
  Fn1 fn;
  Fn2 fn2;
  Native(const char* n, Fn1 f, Fn2 f2) : Object(ObjKind::Native), name(n), fn(f), fn2(f2) {}
};

}  // namespace humus::rt
