// An actor: an address with a mailbox, a behavior and a scheduling state.
//
// Layout matters here (an idle actor should cost <= 128 bytes): the object
// header with the scheduling state, a run-unique id for printing (@17), the
// behavior, the ready-queue link, and the mailbox ends with their stub.
// Built-in actors (println, timer, ...) have a Closure over NativeBehaviorCode.
//
// Only the worker that won the Idle -> Scheduled transition touches
// `behavior`; everything else goes through the mailbox.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/mailbox.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

enum class SchedState : uint8_t { Idle, Scheduled, Running };

// One cache line, aligned to one: actors that run on different workers
// never share a line (every message writes the receiver's state, mailbox
// and reference count), and an idle actor costs 64 bytes plus its behavior.
struct alignas(64) Actor : Object {
  std::atomic<SchedState> state{SchedState::Idle};  // in Object's tail padding
  uint64_t id;
  Value behavior;               // a function value (Closure or Native)
  Actor* next_ready = nullptr;  // intrusive link for the dispatcher's queues
  Mailbox mailbox;

  explicit Actor(uint64_t i) : Object(ObjKind::Actor), id(i) {
    detail::live_actors.fetch_add(1, std::memory_order_relaxed);  // see live_actor_count()
  }
};

static_assert(sizeof(Actor) == 64, "an actor should fill exactly one cache line");

}  // namespace humus::rt
