// timer: (dt, msg, actor) -> msg to actor after dt milliseconds; and
// (cust, #schedule, dt, msg, actor) -> the same, answering cust with
// (#scheduled, t): t is a new actor, and `SEND #cancel TO t` takes the timer
// back (nothing is sent, and it holds the program alive no longer); after
// it fired, #cancel does nothing. Delayed sends are effects like any other:
// they follow the event's commit or rollback.
#include "runtime/builtins/devices.hpp"
#include "runtime/context.hpp"
#include "runtime/runtime.hpp"
#include "runtime/symbols.hpp"

namespace humus::rt {

namespace {

// t: #cancel -> cancels the timer whose id it holds (its one captured value).
void timer_handle_behavior(Actor& self, const Value& msg, Context& cx) {
  static const Value cancel = sym("cancel");
  if (!msg.same(cancel)) return cx.rt.unhandled(cx, msg);
  const auto* c = self.behavior.as<Closure>();
  cx.rt.cancel_timer(uint64_t(c->captures()[0].small_value()));
}

// (dt, msg, actor) with dt a small integer >= 0: its parts, else false.
bool delayed_send(const Value& v, int64_t& dt, const Value*& message, const Value*& target) {
  if (!v.is_pair() || !head(v).is_small() || head(v).small_value() < 0 || !tail(v).is_pair()) return false;
  const Value& rest = tail(v);
  if (!tail(rest).is_actor()) return false;
  dt = head(v).small_value();
  message = &head(rest);
  target = &tail(rest);
  return true;
}

}  // namespace

void timer_behavior(Actor&, const Value& msg, Context& cx) {
  int64_t dt;
  const Value *message, *target;
  if (delayed_send(msg, dt, message, target)) {
    cx.fx.delayed.push_back({dt, *target, *message});
    return;
  }
  static const Value schedule = sym("schedule"), scheduled = sym("scheduled");
  if (msg.is_pair() && head(msg).is_actor() && tail(msg).is_pair() && head(tail(msg)).same(schedule) &&
      delayed_send(tail(tail(msg)), dt, message, target)) {
    const uint64_t id = cx.rt.reserve_timer_id();
    static const NativeBehaviorCode handle_code(timer_handle_behavior, "timer_handle");
    Closure* c = Closure::make(&handle_code, 1);
    c->captures()[0] = Value::small(int64_t(id));
    Value handle = cx.rt.new_actor(Value::adopt(c), intern_symbol("timer_handle"));
    cx.fx.delayed.push_back({dt, *target, *message, id});
    cx.fx.send(head(msg).as<Actor>(), make_pair(scheduled, std::move(handle)));
    return;
  }
  cx.rt.unhandled(cx, msg);
}

}  // namespace humus::rt
