// The state of one message-event while its behavior runs.
//
// Effects are buffered here, not applied: sends, delayed sends and the new
// behavior take effect together in Runtime::commit when the event finishes,
// or are dropped when it fails (LANGUAGE.md section 7). Each worker thread
// owns one Context and reuses its buffers, so a steady stream of events
// allocates nothing here.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/value.hpp"

namespace humus::rt {

class Runtime;
struct Actor;

struct Effects {
  struct Send {
    Value target;  // an actor
    Value message;
  };
  struct Delayed {
    int64_t delay_ms;
    Value target;
    Value message;
  };
  std::vector<Send> sends;      // in SEND order
  std::vector<Delayed> delayed;  // AFTER, in statement order
  Value become;                  // empty unless BECOME ran

  void clear() {
    sends.clear();
    delayed.clear();
    become = Value();
  }
};

struct Context {
  explicit Context(Runtime& r) : rt(r) {}
  Runtime& rt;
  Actor* self = nullptr;  // null for top-level statements
  Effects fx;
  // Counters read by :stats and reports; owned by this thread.
  uint64_t events = 0;
  uint64_t unhandled = 0;
};

}  // namespace humus::rt
