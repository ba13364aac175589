// The console: println, print and testing_pass. What they write goes into
// the event's output (Effects::out), written when the event commits; sends
// to them from an event are not even queued (Effects::console), so one
// event's output keeps its SEND order and comes after the output of the
// events that caused it (docs/scripting.md, "One console").
#include "runtime/builtins/devices.hpp"
#include "runtime/context.hpp"
#include "runtime/print.hpp"
#include "runtime/runtime.hpp"
#include "runtime/text.hpp"

namespace humus::rt {

void println_behavior(Actor&, const Value& msg, Context& cx) {
  print_value(cx.fx.out, msg);
  cx.fx.out += '\n';
}

// print: a string as its UTF-8 text, anything else as println writes it.
void print_behavior(Actor& self, const Value& msg, Context& cx) {
  std::optional<std::string> text = string_text(msg);
  if (!text) return println_behavior(self, msg, cx);
  cx.fx.out += *text;
  cx.fx.out += '\n';
}

// testing_pass: LABEL -> "#pass, LABEL" as println would write it, and a
// passed check for the tally at the end of the run. It runs as the sending
// event commits, so a check rolled back is not counted.
void testing_pass_behavior(Actor&, const Value& label, Context& cx) {
  static const Value pass = sym("pass");
  print_value(cx.fx.out, make_pair(pass, label));
  cx.fx.out += '\n';
  cx.rt.count_passed_check();
}

}  // namespace humus::rt
