// The seam between the runtime and distribution (runtime/cluster/).
//
// The runtime core knows three things about actors in other processes and
// durable topics, and nothing more:
//
// - A *foreign* actor (Object::kForeign) has no mailbox of its own that
//   matters: it stands for a remote actor or a topic. Its behavior is a
//   Closure over a ForeignCode, which never changes. Sends to it are taken
//   out of the event at commit (Distribution::stage), before any effect
//   applies, so a message that cannot cross (a function) fails the event
//   and nothing happens; they leave only after the commit
//   (Distribution::release). A message that reaches its mailbox anyway (a
//   timer, a host's send) is sent on by its behavior, as an event.
// - An *envelope* (ObjKind::Envelope) carries a message delivered from a
//   topic. run_event unwraps it, so the behavior sees the value only; the
//   event's commit settles the delivery (acknowledges the input once the
//   values it sent to topics are stored), its failure abandons it (the
//   input comes back later).
// - A context has a Distribution-owned state (its outbox); the actor's turn
//   (Runtime::run_turn) flushes it when it has something, at the end of the
//   turn, so messages of one actor are queued in commit order; the
//   dispatcher calls EventRunner::send_queued when a worker is between jobs.
#pragma once

#include <memory>

#include "runtime/code.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

struct Context;

// What the distribution layer keeps to settle one delivered input. Settled
// by taking it out of its envelope; destroyed unsettled (the message was
// dropped, or the runtime stopped) it abandons the delivery.
struct DeliveryTicket {
  virtual ~DeliveryTicket() = default;
};

struct Envelope : Object {
  Value value;
  std::unique_ptr<DeliveryTicket> ticket;
  Envelope(Value v, std::unique_ptr<DeliveryTicket> t)
      : Object(ObjKind::Envelope), value(std::move(v)), ticket(std::move(t)) {}
};

// The behavior of a foreign actor: what it stands for is the distribution
// layer's business. Run as a behavior (a message that went through the
// mailbox), it sends the message on to itself, so the commit routes it.
class ForeignCode : public FunctionCode {
 public:
  ForeignCode() : FunctionCode(SourceLoc{}) {}
  Value apply(const Closure&, const Value&, Context&) const override { return Value::undefined(); }
  bool run_behavior(const Closure& self, const Value& msg, Context& cx) const override;
};

// What the distribution layer counts: messages and topic values across processes.
struct DistributionStats {
  uint64_t sent = 0;          // messages to actors on other nodes
  uint64_t received = 0;      // messages from other nodes delivered here
  uint64_t dropped = 0;       // messages to actors of nodes that are down
  uint64_t rejected = 0;      // bad input from the wire (truncated, malformed, unknown actor)
  uint64_t lost = 0;          // committed messages never acknowledged by their node, topic values not stored
                              // (docs/distribution.md)
  uint64_t appended = 0;      // values appended to topics
  uint64_t delivered = 0;     // deliveries from topics
  uint64_t redelivered = 0;   // deliveries that failed and will come back
  uint64_t dead_letters = 0;  // inputs moved to NAME.dead
  uint64_t packets = 0;  // messages of the transport that carried `sent` (a turn's messages to one node share them)
};

// Per-context state of the distribution layer (an outbox); made on first use.
struct ContextState {
  virtual ~ContextState() = default;
};

// The distribution layer as the runtime sees it. The host installs one
// (Runtime::install; the interpreter installs runtime/cluster/'s), so that
// the core names no type of it and needs none: a runtime without one runs
// in this process alone.
class Distribution {
 public:
  virtual ~Distribution() = default;
  // Stops its threads and forgets every actor, before the runtime's
  // dispatcher goes (they send into it). Idempotent.
  virtual void stop() = 0;
  // Leaves the other processes (`SEND #leave TO cluster`, a signal, a host).
  virtual void leave() = 0;
  virtual DistributionStats stats() const = 0;
  // Commit, first step: takes the sends to foreign actors out of cx.fx and
  // prepares them. Throws EventError, with nothing changed, when one cannot
  // be sent (the event then fails as a whole).
  virtual void stage(Context& cx) = 0;
  // Commit, last step (the local effects applied): lets the staged
  // messages go and settles cx.delivery, if any.
  virtual void release(Context& cx) = 0;
  // The event of cx.delivery failed or did not match: the input comes back later.
  virtual void abandon(Context& cx) = 0;
  // Queues what the context's committed events left in its outbox, to be
  // sent by send_queued (order per sender is kept).
  virtual void flush(Context& cx) = 0;
  // Sends what flush queued; called when a worker has nothing to run, every
  // few turns, and at safe points of long events. Cheap when nothing waits.
  virtual void send_queued() = 0;
};

}  // namespace humus::rt
