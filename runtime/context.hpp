// The state of one message-event while its behavior runs.
//
// Effects are buffered here, not applied: sends, delayed sends and the new
// behavior take effect together in Runtime::commit when the event finishes,
// or are dropped when it fails (LANGUAGE.md section 7). Each worker thread
// owns one Context and reuses its buffers, so a steady stream of events
// allocates nothing here.
#pragma once

#include <atomic>
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
  std::vector<Send> sends;       // in SEND order
  std::vector<Delayed> delayed;  // AFTER, in statement order
  Value become;                  // empty unless BECOME ran

  void clear() {
    sends.clear();
    delayed.clear();
    become = Value();
    // Kept for the next event, unless one huge event (a loop of a million
    // sends) grew them: that memory goes back rather than staying with the worker.
    constexpr size_t kKeep = 1 << 14;
    if (sends.capacity() > kKeep) std::vector<Send>().swap(sends);
    if (delayed.capacity() > kKeep) std::vector<Delayed>().swap(delayed);
  }
};

// Cache-line aligned: each worker writes its own context on every event, and
// two contexts sharing a line would bounce it between cores.
struct alignas(64) Context {
  explicit Context(Runtime& r) : rt(r) {}
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Runtime& rt;
  Actor* self = nullptr;  // null for top-level statements
  Effects fx;
  // Written only by the thread that owns this context (a load and a store,
  // no locked instruction); read by Runtime::stats from anywhere.
  std::atomic<uint64_t> events{0};
  std::atomic<uint64_t> unhandled{0};

  static void bump(std::atomic<uint64_t>& counter) {
    counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
};

}  // namespace humus::rt
