// clock: (cust, #now) -> milliseconds since the Unix epoch (the wall
// clock); (cust, #ticks) -> microseconds of a monotonic clock, for
// measuring durations (it never goes back).
#include <chrono>

#include "runtime/builtins/devices.hpp"
#include "runtime/context.hpp"
#include "runtime/runtime.hpp"

namespace humus::rt {

void clock_behavior(Actor&, const Value& msg, Context& cx) {
  static const Value now = sym("now"), ticks = sym("ticks");
  if (!msg.is_pair() || !head(msg).is_actor() || !(tail(msg).same(now) || tail(msg).same(ticks)))
    return cx.rt.unhandled(cx, msg);
  Actor* cust = head(msg).as<Actor>();
  Devices& d = cx.rt.devices();
  if (std::string why = d.refusal("the clock", d.clock_allowed()); !why.empty()) return send_error(cx, cust, why);
  using namespace std::chrono;
  const int64_t t = tail(msg).same(now) ? duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count()
                                        : duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count();
  cx.fx.send(cust, Value::small(t));
}

}  // namespace humus::rt
