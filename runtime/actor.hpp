// An actor: an address with a mailbox, a behavior and a scheduling state.
//
// Layout matters here (an idle actor should cost <= 128 bytes): the object
// header, a run-unique id for printing (@17), the behavior, the mailbox ends
// with its stub, the scheduling state and the ready-queue link.
//
// Only the worker that won the Idle -> Scheduled transition touches
// `behavior`; everything else goes through the mailbox.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/mailbox.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

struct Context;
struct Actor;

// A behavior written in C++ (println, timer, random, host actors).
using NativeBehavior = void (*)(Actor& self, const Value& msg, Context& cx);

enum class SchedState : uint8_t { Idle, Scheduled, Running };

struct Actor : Object {
  uint64_t id;
  Value behavior;                    // a function value (Closure or Native)
  NativeBehavior native = nullptr;   // set for built-in actors instead of `behavior`
  std::atomic<SchedState> state{SchedState::Idle};
  Actor* next_ready = nullptr;       // intrusive link for the dispatcher's queues
  Mailbox mailbox;

  explicit Actor(uint64_t i) : Object(ObjKind::Actor), id(i) {
    detail::live_actors.fetch_add(1, std::memory_order_relaxed);  // see live_actor_count()
  }
};

}  // namespace humus::rt
