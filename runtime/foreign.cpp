// A foreign actor's behavior, for messages that reached its mailbox.
#include "runtime/foreign.hpp"

#include "runtime/context.hpp"

namespace humus::rt {

// A timer's or a host's message to a remote actor or a topic went through
// the mailbox: send it on from an event, whose commit routes it (foreign.hpp).
bool ForeignCode::run_behavior(const Closure&, const Value& msg, Context& cx) const {
  cx.fx.send(cx.self, msg);
  return true;
}

}  // namespace humus::rt
