// The built-in actors: the console (println, print, testing_pass), timer,
// random, clock, stdin and files (LANGUAGE.md section 9, docs/scripting.md).
//
// Each is an actor whose behavior is C++ (a NativeBehaviorCode), bound to
// the global of its name when a runtime is made. Like uFork's devices they
// are capabilities: a program reads standard input, files or the clock only
// through them, so a runtime made with `sandbox` (`--sandbox`), or whose
// host leaves one out (DeviceAccess), has that actor answer every request
// with (#error, reason) instead. A device that does I/O answers in its own
// event where it can: standard input is read ahead by a thread of its own
// (stdin.hpp), files are read and written in the event (they are local and
// short), so a program of many requests costs one event each.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>

#include "runtime/value.hpp"

namespace humus::rt {

class Runtime;
class Globals;
struct Actor;
struct Context;
class StdinReader;

// Which I/O devices a runtime's programs may use (RuntimeOptions::devices);
// each left out answers (#error, "... is not available in this program").
struct DeviceAccess {
  bool standard_input = true;
  bool files = true;
  bool clock = true;
  std::string denied = "its host left it out";  // why, in the answer to a refused request
  int stdin_fd = 0;  // what `stdin` reads: the process's standard input, or a host's (or a test's) pipe
};

// A built-in actor's name and what the hover and the REPL say of it.
struct DeviceDoc {
  const char* name;
  const char* doc;
};
std::span<const DeviceDoc> device_docs();

class Devices {
 public:
  Devices(Runtime& rt, DeviceAccess access, bool sandbox, uint64_t seed);
  ~Devices();
  Devices(const Devices&) = delete;
  Devices& operator=(const Devices&) = delete;

  // Makes the built-in actors and binds their globals.
  void define(Globals& globals);
  // Stops the threads devices keep (the standard-input reader): before the
  // dispatcher goes, since they send into it.
  void stop();

  Runtime& runtime() { return rt_; }
  // Why a device refuses, or "" when it may serve ("standard input").
  std::string refusal(const char* what, bool allowed) const;
  bool stdin_allowed() const { return access_.standard_input && !sandbox_; }
  bool files_allowed() const { return access_.files && !sandbox_; }
  bool clock_allowed() const { return access_.clock && !sandbox_; }

  // The state of the devices that have one; each is used inside its own
  // actor's events only, one at a time.
  std::mt19937_64 rng;
  StdinReader& stdin_reader();  // made on first use: a program that never reads starts no thread

 private:
  Runtime& rt_;
  DeviceAccess access_;
  bool sandbox_;
  std::unique_ptr<StdinReader> stdin_;
};

// The behaviors, one file each (console.cpp, timer.cpp, ...).
void println_behavior(Actor& self, const Value& msg, Context& cx);
void print_behavior(Actor& self, const Value& msg, Context& cx);
void testing_pass_behavior(Actor& self, const Value& msg, Context& cx);
void timer_behavior(Actor& self, const Value& msg, Context& cx);
void random_behavior(Actor& self, const Value& msg, Context& cx);
void clock_behavior(Actor& self, const Value& msg, Context& cx);
void stdin_behavior(Actor& self, const Value& msg, Context& cx);
void files_behavior(Actor& self, const Value& msg, Context& cx);

// For the devices' behaviors: (#error, reason) to cust, the reason a string.
void send_error(Context& cx, Actor* cust, const std::string& reason);
// A symbol by name, interned once per call site: `static const Value ok = sym("ok")`.
Value sym(const char* name);

}  // namespace humus::rt
