// The interpreter's side of the browser playground (docs/playground.md),
// compiled to WebAssembly by interpreter/web/CMakeLists.txt only.
//
// The page runs this module in a Web Worker (page/worker.js),
// which calls the functions below through Module.ccall and hears back
// through the js_* functions: program output, diagnostics (the same text as
// the humus command's, so "program.hum:3:5: error: ..."), and whether Stop
// was pressed. A run has no threads: humus_start runs the top-level
// statements, then the worker calls humus_step for slices of events until
// the run is over, going back to the browser's event loop in between (so
// Stop is heard there, and the page stays live); an event that never ends
// hears Stop at the VM's safe points through js_stop_requested.
#include <emscripten.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "interpreter/session.hpp"
#include "interpreter/trace/diagram.hpp"
#include "runtime/stack_guard.hpp"

// clang-format off
EM_JS(void, js_out, (const char* text, int n), { self.humusOut(UTF8ToString(text, n)); });
EM_JS(void, js_err, (const char* text, int n), { self.humusErr(UTF8ToString(text, n)); });
EM_JS(int, js_stop_requested, (), { return self.humusStopRequested() ? 1 : 0; });
// clang-format on

namespace {

using humus::interp::Session;

// The stack emscripten gives the module (-sTOTAL_STACK in interpreter/web/CMakeLists.txt).
constexpr std::size_t kStack = std::size_t(16) << 20;

enum Status { kRunning = -2, kDone = -1 };
constexpr int64_t kMaxWaitMs = (int64_t(1) << 31) - 1;  // setTimeout's longest delay
enum Outcome { kOk = 0, kRuntimeError = 1, kCompileError = 2, kInterrupted = 3 };

// One run of the page: its session and what the page asks of it.
struct Run {
  explicit Run(const std::string& name) : diagram(name) {}
  humus::trace::Diagram diagram;
  std::unique_ptr<Session> session;
  int outcome = kOk;
  Session::Outcome last = Session::Outcome::Ok;  // of the top-level statements
  bool noted = false;                            // the unhandled-messages note is written
  std::string svg;
};
Run* g_run = nullptr;

void finish(Run& s, Session::Outcome last) {
  switch (s.session->ending(last)) {
    case Session::Ending::Ok:
      s.outcome = kOk;
      break;
    case Session::Ending::Rejected:
      s.outcome = kCompileError;
      break;
    case Session::Ending::Interrupted:
      s.outcome = kInterrupted;
      break;
    case Session::Ending::Failed:
    case Session::Ending::Stopped:
      s.outcome = kRuntimeError;
      break;
  }
}

}  // namespace

extern "C" {

// Compiles and starts the `length` bytes at `code` (UTF-8, checked as the
// command checks a file: NUL bytes and invalid UTF-8 are errors with their
// place), named `name` in diagnostics; the previous run is ended first. Its
// top-level statements run now. Returns an Outcome; the run goes on with
// humus_step unless it is kCompileError.
EMSCRIPTEN_KEEPALIVE int humus_start(const char* code, int length, const char* name) {
  static bool guarded = false;
  if (!guarded) {
    humus::rt::stack_guard_init(kStack);
    guarded = true;
  }
  delete g_run;
  g_run = new Run(name);
  Run& s = *g_run;
  Session::Options so;
  humus::rt::RuntimeOptions& o = so.runtime;
  o.threads = 0;
  o.seed = 1;
  o.out = [](std::string_view t) { js_out(t.data(), int(t.size())); };
  o.err = [](std::string_view t) { js_err(t.data(), int(t.size())); };
  o.tracer = &s.diagram;
  o.interrupt_requested = [] { return js_stop_requested() != 0; };
  // A page has no standard input or files of its own; the clock it has.
  o.devices.standard_input = false;
  o.devices.files = false;
  o.devices.denied = "a web page has none";
  so.sandbox = true;  // a page has no files of its own: IMPORT takes the standard library
  s.session = std::make_unique<Session>(std::move(so));
  if (s.session->open() != Session::Outcome::Ok) return s.outcome = kCompileError;
  auto source = std::make_shared<humus::ast::Source>(humus::ast::Source{name, std::string(code, std::size_t(length))});
  // A name defined nowhere stops the program before anything runs, as in the command.
  s.last = s.session->enter(source, Session::Entry{});
  if (s.last == Session::Outcome::SyntaxError || s.last == Session::Outcome::CompileError)
    return s.outcome = kCompileError;  // in the program or an IMPORTed module
  s.session->start();
  finish(s, s.last);
  return s.outcome;
}

// Runs events for about `budget_ms`. Returns kRunning (more to do now),
// kDone (the run is over: see humus_outcome), or the milliseconds to wait
// for the next timer.
EMSCRIPTEN_KEEPALIVE int humus_step(int budget_ms) {
  if (!g_run || g_run->outcome == kCompileError) return kDone;
  Run& s = *g_run;
  humus::rt::Runtime::Slice slice = s.session->runtime().run_for(std::chrono::milliseconds(budget_ms));
  finish(s, s.last);
  if (slice.more) return kRunning;
  if (slice.wait_ms < 0) {  // the run is over: say so if messages were dropped, as the command does
    if (!s.noted) {
      const std::string note = s.session->notes();
      js_err(note.data(), int(note.size()));
      s.noted = true;
    }
    return kDone;
  }
  // A timer years away (AFTER 10^13) waits as long as setTimeout can.
  return int(std::min<int64_t>(slice.wait_ms, kMaxWaitMs));
}

// Stop: the queued messages and timers are dropped.
EMSCRIPTEN_KEEPALIVE void humus_stop() {
  if (g_run && g_run->session) g_run->session->runtime().interrupt();
}

EMSCRIPTEN_KEEPALIVE int humus_outcome() { return g_run ? g_run->outcome : kOk; }

// The run's sequence diagram so far, as SVG (valid until the next call).
EMSCRIPTEN_KEEPALIVE const char* humus_diagram() {
  if (!g_run) return "";
  g_run->svg = g_run->diagram.svg();
  return g_run->svg.c_str();
}

EMSCRIPTEN_KEEPALIVE const char* humus_version() { return HUMUS_VERSION; }

}  // extern "C"
