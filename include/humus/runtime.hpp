// humus::Runtime: a Humus interpreter inside a C++ program.
//
// One Runtime is one Humus world: its globals, its actors, its worker
// threads. The host loads code into it (eval, load_file, import), adds C++
// functions and actors that scripts use by name (define_function,
// define_actor), and talks to actors from outside (send, ask).
//
// The trade-off, as in Lua's lua_State: everything goes through this one
// opaque object, so the internals (parser, compiler, dispatcher) stay private
// and each call is checked at one place. Every member function is safe to
// call from any host thread; loading code is serialised, sends are not.
// Exceptions: a call after shutdown() throws humus::Error. Errors in Humus
// code are not exceptions: they come back in a Result as Diagnostics.
//
// Callbacks (native functions and behaviors) run on worker threads, any
// number at once. They must not call run_until_idle/run_for/shutdown (that
// would wait for themselves); an exception they throw fails the event (or the
// call) like a Humus THROW, and is reported.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "humus/export.hpp"
#include "humus/value.hpp"

namespace humus {

// One message of the loader: FILE:LINE:COLUMN: severity: message.
struct HUMUS_API Diagnostic {
  enum class Severity { Error, Warning };
  std::string file;     // as given ("<eval>", a path, "stdlib/NAME.hum")
  unsigned line = 0;    // 1-based; 0 when there is no position
  unsigned column = 0;  // 1-based, in characters (code points)
  Severity severity = Severity::Error;
  std::string message;

  std::string to_string() const;  // "file:3:7: error: message"
};

// What eval, load_file and import give back.
struct HUMUS_API Result {
  enum class Status { Ok, SyntaxError, CompileError, RuntimeError, IoError };
  Status status = Status::Ok;
  std::vector<Diagnostic> diagnostics;  // errors, and warnings even when ok
  Value value;                          // eval: the last expression statement's value, else ?; call: the result

  bool ok() const { return status == Status::Ok; }
  explicit operator bool() const { return ok(); }
  std::string message() const;  // the diagnostics, one per line
};

enum class LogLevel { Trace, Warning, Error };

// How a script's top-level statements run (docs/language.md, section 8):
// one at a time, in order, each a transaction of its own (the default, as
// humus_js and the REPL do), or the uFork way: the whole script as one
// block, its statements ordered by dataflow, all in one transaction.
enum class ScriptMode { Statements, OneBlock };

struct Options {
  unsigned threads = 1;  // worker threads
  // true: every worker always runs; false (the default): a governor benches
  // workers while they make the program slower (docs/performance.md).
  bool fixed_threads = false;
  unsigned budget = 32;          // messages an actor handles per turn
  std::optional<uint64_t> seed;  // `random` (and the dispatcher's choices); none: from the OS
  // Program output (println, print). Default: stdout. Called from worker
  // threads, once per event with whole lines: what one event printed, in
  // the order it was sent (docs/scripting.md, "One console").
  std::function<void(std::string_view)> out;
  // Text of asynchronous diagnostics: errors in actors, traces, warnings.
  // Default: the logger if set, else stderr.
  std::function<void(std::string_view)> err;
  // Receives the same messages as `err`, one at a time, with a level.
  std::function<void(LogLevel, std::string_view)> logger;
  bool prelude = true;  // import stdlib/prelude.hum first
  // No file access from Humus code, for hosts that run code they do not
  // trust: IMPORT statements take standard-library names only (the host's
  // own load_file and import are not restricted), and the devices below
  // answer every request (#error, reason).
  bool sandbox = false;
  // The built-in actors that reach outside the program (docs/scripting.md):
  // `stdin` reads this process's standard input (off by default: it is
  // usually the host's own), `files` reads and writes files, `clock` tells
  // the time. One left out answers (#error, reason).
  struct Devices {
    bool standard_input = false;
    bool files = true;
    bool clock = true;
  } devices;
  bool trace = false;  // report every message-event
  // Report messages dropped (unhandled, or sent to a non-actor) and values
  // quietly ignored (a non-function applied, a statement's non-block value).
  bool warn_unhandled = false;
  // Actors that only reference cycles hold are looked for when this many
  // actors live, then each time their number doubles; 0: only when the
  // runtime goes, or when collect_cycles() is called (docs/reliability.md).
  uint64_t cycle_check = 10000;
  // Resource limits (docs/reliability.md); 0 means none. Going over one
  // stops the run: queued messages are dropped, limit_reached() says which.
  struct Limits {
    uint64_t max_events = 0;     // message-events run
    uint64_t max_actors = 0;     // actors the program creates
    uint64_t max_memory = 0;     // resident memory, bytes
    double timeout_seconds = 0;  // wall time since the runtime was made
  } limits;
  // A cluster of Humus processes on NATS (docs/distribution.md), reached
  // through the global actor `cluster`. With no url the cluster is this
  // runtime alone (topics in memory). A joined runtime is never idle until
  // it leaves (leave_cluster, or `SEND #leave TO cluster`): use run_for.
  struct Cluster {
    std::string url;                        // nats://host:port (tls://..., user:password@..., several: commas)
    std::string node;                       // this node's name (default: host-pid)
    std::string name = "humus";             // the cluster's name: prefix of its subjects and streams
    std::string user, password, token;      // credentials besides the URL's; never logged
    std::string tls_ca, tls_cert, tls_key;  // TLS files
    int64_t heartbeat_ms = 500, down_after_ms = 3000;                        // failure detection
    int64_t retry_delay_ms = 1000, max_deliveries = 5, ack_wait_ms = 10000;  // topics
    int64_t topic_replicas = 1;  // servers keeping a copy of each topic (1 to 5; the cluster needs as many)
  } cluster;
};

class Runtime;

// What a native behavior sees while it handles one message. Its effects are
// those of a Humus message-event: buffered, and applied together when the
// callback returns (or dropped if it throws).
class HUMUS_API ActorContext {
 public:
  Value self() const;  // the actor handling the message
  void send(const Value& target, Value message);
  void send_after(std::chrono::milliseconds delay, const Value& target, Value message);
  // The behavior for the next message: a C++ behavior or a Humus function
  // value (a behavior made by Runtime::behavior, or one a script defined).
  void become(const Value& behavior);
  void become(std::function<void(ActorContext&, const Value&)> behavior);
  Value create(const Value& behavior);  // a new actor (CREATE)
  Runtime& runtime() const;

 private:
  friend struct RuntimeAccess;
  ActorContext(void* impl, void* cx) : impl_(impl), cx_(cx) {}
  void* impl_;
  void* cx_;
};

// A C++ function callable from Humus: `sqrt(x)` calls it with x; `f(a, b)`
// with the pair (a, b). Return ? for "no result" as built-ins do.
using Function = std::function<Value(const Value& argument)>;
// A C++ behavior: called once per message, on a worker thread.
using Behavior = std::function<void(ActorContext& cx, const Value& message)>;

struct RuntimeStats {
  uint64_t events = 0;     // message-events run
  uint64_t unhandled = 0;  // messages no behavior matched
  uint64_t errors = 0;     // failed events
  uint64_t actors = 0;     // actors created
  uint64_t queued = 0;     // messages not yet handled
  // Across processes (docs/distribution.md).
  uint64_t remote_sent = 0, remote_received = 0;  // messages to and from other nodes
  uint64_t remote_dropped = 0;                    // to actors of nodes that are down
  uint64_t remote_lost = 0;                       // committed, never acknowledged by their node
  uint64_t wire_rejected = 0;                     // bad input from the wire
  uint64_t topic_appended = 0, topic_delivered = 0, topic_redelivered = 0, dead_letters = 0;
  // Actors and the cycle collector (docs/reliability.md).
  int64_t live_actors = 0;                                        // made and not freed yet
  uint64_t collections = 0;                                       // times the collector looked at every actor
  uint64_t actors_collected = 0;                                  // actors it freed (only reference cycles held them)
  uint64_t collect_pause_us_total = 0, collect_pause_us_max = 0;  // workers held still, microseconds
};

class HUMUS_API Runtime {
 public:
  // Starts the workers and (unless options.prelude is false) imports the
  // prelude; throws humus::Error if the prelude fails to load.
  explicit Runtime(Options options = {});
  ~Runtime();  // shutdown()
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // ---- loading code (one at a time; actors keep running meanwhile)
  // Runs `code` as a script named `name`. An expression statement that is not
  // a block is allowed and its value is Result::value (the last one).
  Result eval(std::string_view code, std::string_view name = "<eval>", ScriptMode mode = ScriptMode::Statements);
  // Runs a script file (its relative IMPORTs start from its folder). As the
  // humus command: a name its top-level statements read but nothing defines
  // is a CompileError, and nothing runs.
  Result load_file(const std::string& path, ScriptMode mode = ScriptMode::Statements);
  // IMPORT "module" (stdlib name or path), once per runtime.
  Result import(const std::string& module);

  // ---- globals
  std::optional<Value> global(std::string_view name) const;  // none when unbound
  void define(std::string_view name, const Value& value);
  // A C++ function or actor under a global name, for scripts loaded after.
  void define_function(std::string_view name, Function fn);
  Value define_actor(std::string_view name, Behavior behavior);  // gives the actor

  // ---- calling Humus functions
  // Applies the function bound to global `name` (or a function value) to the
  // arguments as Humus does: call("f") is f(), call("f", x) is f(x) and
  // call("f", a, b) is f(a, b). Each argument converts to a Value (any
  // integer does). The function's result is Result::value. An unbound name,
  // a value that is not a function, a runtime error in the function (with
  // its location) or an exception thrown by a native function it calls
  // comes back as a Result with status RuntimeError, never as an exception.
  // An argument that does not match the parameter pattern gives ?, as in
  // Humus. Runs on the calling thread, alongside actors and other calls.
  template <class... Args>
  Result call(std::string_view name, const Args&... args) {
    const std::array<Value, sizeof...(Args)> values{Value(args)...};
    return call_args(name, values);
  }
  template <class... Args>
  Result call(const Value& function, const Args&... args) {
    const std::array<Value, sizeof...(Args)> values{Value(args)...};
    return call_args(function, values);
  }
  // The same with the arguments in a sequence: none, one, or a tuple's elements.
  Result call_args(std::string_view name, std::span<const Value> args);
  Result call_args(const Value& function, std::span<const Value> args);

  // ---- values tied to this runtime
  Value function(Function fn, std::string_view name = "native");  // a function value
  Value behavior(Behavior behavior);                              // a behavior value (for become/create)
  Value create(Behavior behavior);                                // a new actor
  Value create(const Value& behavior);                            // from a Humus function value

  // ---- messages from the host
  void send(const Value& actor, Value message);
  // Sends (customer, request) to `actor`; the future gets the first message
  // the customer receives. A one-shot native actor; if no reply comes
  // within `timeout` (kAskTimeout, 30 s, unless given; zero or less: no
  // limit), or the runtime shuts down first, the future holds a humus::Error
  // that says which.
  static constexpr std::chrono::milliseconds kAskTimeout{30'000};
  std::future<Value> ask(const Value& actor, Value request, std::chrono::milliseconds timeout = kAskTimeout);

  // ---- running
  // Blocks until no message is queued or running and no timer is pending.
  // Both return at once after shutdown() (run_for then gives true).
  void run_until_idle();
  // Waits at most `limit` for that; true if the runtime became idle.
  bool run_for(std::chrono::milliseconds limit);
  // From any thread: every event running now, and every eval or call
  // running now, fails ("interrupted") at its next safe point, within
  // 65,536 calls, and is undone. Queued messages, later events and every
  // definition stay: the runtime goes on (the REPL's Ctrl-C).
  void interrupt();
  // Frees the actors only reference cycles hold, now (the collector also
  // runs by itself: Options::cycle_check). Waits for the events running now
  // to end; other calls and sends may go on meanwhile.
  void collect_cycles();
  // Stops the workers (queued messages are dropped). Further calls throw.
  void shutdown();
  bool is_shut_down() const;

  RuntimeStats stats() const;
  // Leaves the cluster (as `SEND #leave TO cluster` does); then the runtime
  // can become idle. Does nothing when not joined.
  void leave_cluster();
  // Why the run was stopped by a resource limit ("--max-events 1000 reached"), if it was.
  std::optional<std::string> limit_reached() const;

  struct Impl;  // opaque: defined in the library only

 private:
  friend struct RuntimeAccess;
  std::unique_ptr<Impl> impl_;
};

}  // namespace humus
