// An actor: an address with a mailbox, a behavior and a scheduling state.
//
// Layout matters here (an idle actor should cost <= 128 bytes): the object
// header with the scheduling state, a run-unique id for printing (@17) that
// also holds the name it was CREATEd with (for diagnostics: greeter@17), the
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
  // The id takes the low 44 bits of id_and_name (17 trillion actors; beyond,
  // printed numbers repeat, identity does not); the high 20 bits hold the
  // symbol of the actor's CREATE name plus one, or 0 for none.
  static constexpr int kIdBits = 44;
  static constexpr uint64_t kIdMask = (uint64_t(1) << kIdBits) - 1;
  static constexpr uint32_t kNoName = UINT32_MAX;

  // Back-pressure (Dispatcher, "Muting"): kOverloaded after turns that
  // each used the whole budget and left messages behind (counted in units
  // of kFullTurn), or a backlog that grew while it waited, until a turn
  // that is not full; kMuted while the dispatcher holds it back for sending
  // to an actor under pressure. The high four bits count the messages sent
  // to it since its last turn ended (in units of kQueuedUnit; only while
  // several workers run), kept by its senders.
  static constexpr uint8_t kOverloaded = 1;
  static constexpr uint8_t kMuted = 2;
  static constexpr uint8_t kUnderPressure = kOverloaded | kMuted;
  static constexpr uint8_t kFullTurn = 4;
  static constexpr uint8_t kTurnBits = 15;  // kOverloaded, kMuted and the full turns
  static constexpr uint8_t kQueuedUnit = 16;
  // The count of messages sent since its last turn, in a pressure byte.
  static constexpr unsigned queued(uint8_t pressure) { return pressure / kQueuedUnit; }

  std::atomic<SchedState> state{SchedState::Idle};  // in Object's tail padding
  std::atomic<uint8_t> pressure{0};                 // so is this
  uint64_t id_and_name;
  Value behavior;               // a function value (Closure or Native)
  Actor* next_ready = nullptr;  // intrusive link for the dispatcher's queues
  Mailbox mailbox;

  // `name`: a symbol id (set while no other thread can see the actor).
  explicit Actor(uint64_t i, uint32_t name = kNoName) : Object(ObjKind::Actor), id_and_name(i & kIdMask) {
    if (name < (uint32_t(1) << (64 - kIdBits)) - 1) id_and_name |= uint64_t(name + 1) << kIdBits;
  }
  uint64_t id() const { return id_and_name & kIdMask; }
  // The symbol of its CREATE name, or kNoName.
  uint32_t name() const { return id_and_name >> kIdBits ? uint32_t(id_and_name >> kIdBits) - 1 : kNoName; }
};

static_assert(sizeof(Actor) == 64, "an actor should fill exactly one cache line");

}  // namespace humus::rt
