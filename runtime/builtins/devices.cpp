#include "runtime/builtins/devices.hpp"

#include <unistd.h>

#include <system_error>

#include "runtime/builtins/stdin.hpp"
#include "runtime/context.hpp"
#include "runtime/globals.hpp"
#include "runtime/runtime.hpp"
#include "runtime/str.hpp"
#include "runtime/symbols.hpp"

namespace humus::rt {

namespace {

constexpr DeviceDoc kDocs[] = {
    {"println", "actor `println`: prints every message it receives, then a newline, on standard output"},
    {"print",
     "actor `print`: writes a string as its text (UTF-8), any other value as `println` does, then a newline, on "
     "standard output. `print` and `println` are one console: what an event sends to them comes out in the order "
     "of its SENDs"},
    {"testing_pass",
     "actor `testing_pass`: prints `#pass, LABEL` for a passed check of the `testing` module and counts it for the "
     "`humus: checks: N passed, M failed` line at the end of the run"},
    {"timer",
     "actor `timer`: on `(dt, msg, actor)` sends msg to actor after dt milliseconds; on `(cust, #schedule, dt, msg, "
     "actor)` the same, and answers `(#scheduled, t)`: `SEND #cancel TO t` takes the timer back"},
    {"random", "actor `random`: on `(cust, n)` sends cust a random integer in 0 .. n-1"},
    {"clock",
     "actor `clock`: on `(cust, #now)` sends cust the milliseconds since the Unix epoch; on `(cust, #ticks)` the "
     "microseconds of a monotonic clock, for measuring durations"},
    {"stdin",
     "actor `stdin`: on `(cust, #read_line)` sends cust the next line of standard input as a string (without its "
     "newline), or `#eof` when there is none"},
    {"files",
     "actor `files`: `(cust, #read, path)` answers `(#ok, string)`; `(cust, #lines, path)` `(#ok, list of lines)`; "
     "`(cust, #write, path, string)` and `(cust, #append, path, string)` answer `#ok`; every failure "
     "`(#error, reason)`"},
};

// An actor whose behavior is `code`, flagged as the console if asked.
Value device(Runtime& rt, const NativeBehaviorCode& code, bool numbered, bool console) {
  Value a = numbered ? rt.builtin_actor(code) : rt.system_actor(code);
  // Before any program sees it: Effects::send reads the flag unsynchronised.
  if (console) a.object()->flags.fetch_or(Object::kConsole, std::memory_order_relaxed);
  return a;
}

}  // namespace

std::span<const DeviceDoc> device_docs() { return kDocs; }

Value sym(const char* name) { return Value::symbol(intern_symbol(name)); }

void send_error(Context& cx, Actor* cust, const std::string& reason) {
  static const Value error = sym("error");
  std::optional<Value> text = str_from_utf8(reason);
  cx.fx.send(cust, make_pair(error, text ? std::move(*text) : Value::nil()));
}

Devices::Devices(Runtime& rt, DeviceAccess access, bool sandbox, uint64_t seed)
    : rng(seed), rt_(rt), access_(access), sandbox_(sandbox) {}

Devices::~Devices() { stop(); }

void Devices::define(Globals& g) {
  static const NativeBehaviorCode println_code(println_behavior, "println"), timer_code(timer_behavior, "timer"),
      random_code(random_behavior, "random"), print_code(print_behavior, "print"),
      testing_pass_code(testing_pass_behavior, "testing_pass"), clock_code(clock_behavior, "clock"),
      stdin_code(stdin_behavior, "stdin"), files_code(files_behavior, "files");
  // println, timer and random are @1, @2, @3, as they always were; the
  // others are numbered @0 so that adding them renumbered no program's actors.
  g.set(g.slot("println"), device(rt_, println_code, true, true));
  g.set(g.slot("timer"), device(rt_, timer_code, true, false));
  g.set(g.slot("random"), device(rt_, random_code, true, false));
  g.set(g.slot("print"), device(rt_, print_code, false, true));
  g.set(g.slot("testing_pass"), device(rt_, testing_pass_code, false, true));
  g.set(g.slot("clock"), device(rt_, clock_code, false, false));
  g.set(g.slot("stdin"), device(rt_, stdin_code, false, false));
  g.set(g.slot("files"), device(rt_, files_code, false, false));
}

void Devices::stop() {
  if (stdin_) stdin_->stop();
}

std::string Devices::refusal(const char* what, bool allowed) const {
  if (allowed) return "";
  if (sandbox_) return std::string(what) + " is disabled (--sandbox)";
  return std::string(what) + " is not available in this program (" + access_.denied + ")";
}

StdinReader& Devices::stdin_reader() {
  if (!stdin_) {
    try {
      stdin_ = std::make_unique<StdinReader>(rt_, access_.stdin_fd);
    } catch (const std::system_error& e) {  // no thread (ulimit -u, -v) or no pipe: this event fails
      runtime_error({}, std::string("cannot read standard input: ") + e.what());
    }
  }
  return *stdin_;
}

// stdin: (cust, #read_line) -> a line, #eof, or (#error, reason) (stdin.hpp).
void stdin_behavior(Actor&, const Value& msg, Context& cx) {
  static const Value read_line = sym("read_line");
  if (!msg.is_pair() || !head(msg).is_actor() || !tail(msg).same(read_line)) return cx.rt.unhandled(cx, msg);
  Actor* cust = head(msg).as<Actor>();
  Devices& d = cx.rt.devices();
  if (std::string why = d.refusal("standard input", d.stdin_allowed() && cx.rt.threads() > 0); !why.empty())
    return send_error(cx, cust, why);
  d.stdin_reader().request(cust, cx);
}

}  // namespace humus::rt
