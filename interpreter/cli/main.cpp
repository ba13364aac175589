// The humus command: run a script file, a -e string or standard input.
//
// Exit status: 0 when everything ran without error, 1 when a runtime error
// was reported, 2 for usage, missing-file, syntax and compile errors, 3 when
// a resource limit (--max-events, --max-actors, --max-memory, --timeout)
// stopped the run.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "interpreter/cli/output.hpp"
#include "interpreter/engine/disassemble.hpp"
#include "interpreter/interpreter.hpp"
#include "interpreter/lsp/server.hpp"
#include "interpreter/read_source.hpp"
#include "interpreter/repl/repl.hpp"
#include "interpreter/session.hpp"
#include "interpreter/trace/diagram.hpp"
#include "interpreter/trace/json_trace.hpp"
#include "runtime/deadline.hpp"
#include "runtime/stack_guard.hpp"
#include "runtime/text.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRuntimeError = 1;
constexpr int kExitUsage = 2;
constexpr int kExitLimit = 3;

struct Options {
  std::string file;
  std::string code;
  bool has_code = false;
  bool check = false;
  bool dump_code = false;
  unsigned threads = 0;
  unsigned budget = 32;
  uint64_t seed = 0;
  bool has_seed = false;
  std::string trace;       // "", "text" or "json"
  std::string trace_file;  // where --trace=json goes ("": standard error)
  std::string diagram;     // where the sequence diagram goes, if anywhere
  bool warn_unhandled = false;
  std::vector<std::string> no_warn;  // compile warnings not to report
  std::vector<std::string> args;     // the script's own arguments (script_args)
  bool no_prelude = false;
  bool one_block = false;
  bool sandbox = false;
  humus::rt::PrintLimit shown;
  bool lsp = false;
  std::string log_level = "warn";
  bool stats = false;
  bool fixed_threads = false;
  uint64_t cycle_check = humus::rt::RuntimeOptions{}.cycle_check;
  humus::rt::Limits limits;
  humus::rt::ClusterOptions cluster;
};

// The range of --max-memory: below a megabyte nothing runs (the prelude's
// code alone is about that), and the counts are signed 64-bit.
constexpr uint64_t kMinMaxMemory = uint64_t(1) << 20;
constexpr uint64_t kMaxMaxMemory = uint64_t(1) << 52;
// --timeout: a finite number of seconds in (0, 1e9]; nan, inf, 1e300 and
// "2s" are usage errors rather than "no limit" or an instant stop.
constexpr double kMaxTimeout = 1e9;
// --cycle-check: more live actors than this would not fit in memory anyway.
constexpr uint64_t kMaxCycleCheck = uint64_t(1) << 40;
// --show-elements and --show-bytes (0: no bound).
constexpr uint64_t kMaxShown = uint64_t(1) << 40;
std::optional<double> parse_seconds(const std::string& s) {
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v) || !(v > 0) || v > kMaxTimeout)
    return std::nullopt;
  return v;
}

// "humus: stopped: --max-events 1000 reached", said once: by the run when
// it winds down, or by the limit monitor when an event never finishes
// (then it exits at once).
std::atomic<bool> g_limit_reported{false};
bool report_limit(const std::string& message) {
  if (g_limit_reported.exchange(true)) return false;
  humus::cli::flush_stdout();
  humus::cli::write_stderr("humus: stopped: " + message + "\n");
  return true;
}
void exit_when_stuck(const std::string& message) {
  if (report_limit(message + " (an event did not finish)")) std::_Exit(kExitLimit);
}

// The runtime settings the command line asked for (resource limits apart).
humus::rt::RuntimeOptions runtime_options(const Options& o) {
  humus::rt::RuntimeOptions ro;
  // Default: one worker per core. --seed alone asks for a repeatable run,
  // which only one worker gives (the order of events is then fixed).
  if (o.threads)
    ro.threads = o.threads;
  else if (o.has_seed)
    ro.threads = 1;
  else
    ro.threads = std::max(1u, std::thread::hardware_concurrency());
  ro.budget = o.budget;
  ro.workers.adaptive = !o.fixed_threads;
  if (o.has_seed) ro.seed = o.seed;
  ro.trace = o.trace == "text";
  ro.warn_unhandled = o.warn_unhandled;
  ro.shown = o.shown;
  ro.out = humus::cli::write_stdout;
  ro.err = humus::cli::write_stderr;
  ro.cycle_check = o.cycle_check;
  ro.sandbox = o.sandbox;
  // The process ends with the runtime: what only cycles hold is left to the
  // operating system, unless a leak checker is to see that nothing leaks.
#ifdef HUMUS_CHECKS
  ro.final_collection = true;
#else
  ro.final_collection = false;
#endif
  return ro;
}

humus::interp::Interpreter::ScriptMode mode(const Options& o) {
  return o.one_block ? humus::interp::Interpreter::ScriptMode::OneBlock
                     : humus::interp::Interpreter::ScriptMode::Statements;
}

// --stats: what the run did, on stderr.
void print_stats(const humus::rt::RuntimeStats& s, bool cluster) {
  std::fprintf(stderr, "humus: stats: %llu events, %llu unhandled, %llu errors, %llu actors\n",
               (unsigned long long)s.events, (unsigned long long)s.unhandled, (unsigned long long)s.errors,
               (unsigned long long)s.actors);
  if (s.worker_changes)
    std::fprintf(stderr, "humus: stats: workers: %u running at the end; the governor changed the count %llu times\n",
                 s.workers_allowed, (unsigned long long)s.worker_changes);
  if (s.governor_probe_ms > 0)
    std::fprintf(stderr, "humus: stats: governor: probes ran another count for %.1f ms in all; window %.0f ms\n",
                 s.governor_probe_ms, s.governor_window_ms);
  if (s.mutes)
    std::fprintf(stderr, "humus: stats: back-pressure: senders held back %llu times\n", (unsigned long long)s.mutes);
  const humus::rt::CycleStats& y = s.cycles;
  if (y.collections || y.gave_up)
    std::fprintf(stderr,
                 "humus: stats: cycles: %llu collections, %llu actors collected, %lld actors live; "
                 "pauses %.3f ms in all, %.3f ms the longest; %llu put off for a busy event\n",
                 (unsigned long long)y.collections, (unsigned long long)y.actors_collected, (long long)s.live_actors,
                 double(y.pause_us_total) / 1000, double(y.pause_us_max) / 1000, (unsigned long long)y.gave_up);
  const humus::rt::DistributionStats& c = s.distribution;
  if (cluster || c.appended || c.delivered)
    std::fprintf(stderr,
                 "humus: stats: cluster: %llu sent (in %llu NATS messages), %llu received, %llu dropped (node down), "
                 "%llu rejected, "
                 "%llu lost; topics: %llu appended, %llu delivered, %llu redelivered, %llu dead letters\n",
                 (unsigned long long)c.sent, (unsigned long long)c.packets, (unsigned long long)c.received,
                 (unsigned long long)c.dropped, (unsigned long long)c.rejected, (unsigned long long)c.lost,
                 (unsigned long long)c.appended, (unsigned long long)c.delivered, (unsigned long long)c.redelivered,
                 (unsigned long long)c.dead_letters);
}

// In a cluster, SIGINT and SIGTERM make the node leave (the program then
// ends once idle); a second one ends it at once. Signals are blocked before
// any thread starts, so this thread alone receives them.
class SignalLeave {
 public:
  explicit SignalLeave(bool active) : active_(active) {
    if (!active_) return;
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
  }
  void watch(humus::rt::Runtime& rt) {
    if (!active_) return;
    rt_ = &rt;
    thread_ = std::thread([this] {
      int seen = 0;
      timespec tick{0, 200 * 1000 * 1000};
      std::chrono::steady_clock::time_point left;
      bool told = false;
      while (!done_.load()) {
        int sig = sigtimedwait(&set_, nullptr, &tick);
        if (sig < 0) {
          if (seen == 1 && !told && std::chrono::steady_clock::now() - left >= kNotIdleAfterLeaving)
            told = tell_not_idle();
          continue;
        }
        if (++seen > 1) std::_Exit(128 + sig);
        std::lock_guard lock(mutex_);
        if (!rt_) continue;  // the runtime is gone: the process is ending anyway
        spdlog::warn("signal {}: leaving the cluster", sig);
        rt_->leave_cluster();
        left = std::chrono::steady_clock::now();
      }
    });
  }
  // A node that left but is still not idle after this says what it waits
  // for (nothing silent): a program's timers or input, or work of its own.
  static constexpr std::chrono::seconds kNotIdleAfterLeaving{5};
  bool tell_not_idle() {
    std::lock_guard lock(mutex_);
    if (!rt_) return true;
    const humus::rt::RuntimeStats s = rt_->stats();
    if (s.queued == 0 && s.holds == 0) return false;  // idle, or about to end
    spdlog::warn(
        "{} s after leaving the cluster the program is not idle (messages queued or running: {}; outside holds: {}, "
        "such as pending timers, a read of standard input, topic values not yet stored, messages not yet "
        "acknowledged); a second signal ends it now",
        kNotIdleAfterLeaving.count(), s.queued, s.holds);
    return true;
  }
  // Before the runtime is destroyed: this thread lives on until the end of
  // run() (up to a tick later), and a signal then used the runtime after it
  // was freed (SIGSEGV at exit, repro R12).
  void forget_runtime() {
    std::lock_guard lock(mutex_);
    rt_ = nullptr;
  }
  ~SignalLeave() {
    done_.store(true);
    if (thread_.joinable()) thread_.join();
  }

 private:
  bool active_;
  sigset_t set_{};
  std::thread thread_;
  std::atomic<bool> done_{false};
  std::mutex mutex_;  // a leave in progress finishes before the runtime goes
  humus::rt::Runtime* rt_ = nullptr;
};

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

// --topic-replicas and $HUMUS_TOPIC_REPLICAS: "" if `s` is a replica count
// JetStream takes (it allows at most 5), else what is wrong with it.
std::string check_topic_replicas(const std::string& s) {
  int64_t n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec == std::errc() && end == s.data() + s.size() && n >= 1 && n <= humus::rt::kMaxTopicReplicas)
    return std::string();
  return "N must be a whole number of replicas from 1 to " + std::to_string(humus::rt::kMaxTopicReplicas) +
         " (JetStream keeps at most " + std::to_string(humus::rt::kMaxTopicReplicas) + " copies of a stream), not " + s;
}

// $HUMUS_CLUSTER when --cluster is not given; credentials and TLS files
// only from here (or the URL).
void cluster_from_environment(humus::rt::ClusterOptions& c, bool url_given) {
  if (!url_given) c.url = env("HUMUS_CLUSTER");
  c.user = env("HUMUS_NATS_USER");
  c.password = env("HUMUS_NATS_PASSWORD");
  c.token = env("HUMUS_NATS_TOKEN");
  c.tls_ca = env("HUMUS_NATS_CA");
  c.tls_cert = env("HUMUS_NATS_CERT");
  c.tls_key = env("HUMUS_NATS_KEY");
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

// Opens `path` for writing, or says why it cannot.
File open_output(const std::string& path) {
  File f(std::fopen(path.c_str(), "wb"));
  if (!f) std::cerr << "humus: cannot write '" << path << "': " << std::strerror(errno) << "\n";
  return f;
}

// The sinks of a structured trace (--trace=json, --diagram), set up before the run.
struct Tracing {
  File json_file;
  std::unique_ptr<humus::trace::JsonWriter> json;
  std::unique_ptr<humus::trace::Diagram> diagram;
  File diagram_file;
  humus::trace::Tee tee;

  bool setup(const Options& o, const std::string& title, humus::rt::RuntimeOptions& ro) {
    if (o.trace == "json") {
      std::FILE* out = stderr;
      if (!o.trace_file.empty()) {
        if (!(json_file = open_output(o.trace_file))) return false;
        out = json_file.get();
      }
      json_path = o.trace_file;
      json = std::make_unique<humus::trace::JsonWriter>([this, out](std::string_view line) {
        if (std::fwrite(line.data(), 1, line.size(), out) != line.size() && !json_errno) json_errno = errno;
        if (out == stderr) std::fflush(out);
      });
      tee.add(json.get());
    }
    if (!o.diagram.empty()) {
      if (!(diagram_file = open_output(o.diagram))) return false;
      diagram = std::make_unique<humus::trace::Diagram>(title);
      tee.add(diagram.get());
    }
    if (json || diagram) ro.tracer = &tee;
    return true;
  }
  // Writes the diagram of what ran (also after a runtime error or a limit),
  // and says if the trace or the diagram could not be written in full (the
  // program ran: a failed run, status 1, as for standard output).
  bool finish() {
    bool ok = true;
    if (json_file && (std::fflush(json_file.get()) != 0 || json_errno)) {
      cannot_write(json_path, json_errno ? json_errno : errno);
      ok = false;
    }
    if (!diagram) return ok;
    std::string svg = diagram->svg();
    if (std::fwrite(svg.data(), 1, svg.size(), diagram_file.get()) != svg.size() ||
        std::fflush(diagram_file.get()) != 0) {
      cannot_write(diagram_path, errno);
      ok = false;
    }
    return ok;
  }
  static void cannot_write(const std::string& path, int error) {
    std::cerr << "humus: cannot write '" << path << "': " << std::strerror(error) << "\n";
  }
  std::string json_path, diagram_path;
  int json_errno = 0;  // the first failed write's, if one failed
};

// Runs one program to quiescence; returns the exit status.
// The global script_args: the arguments after the script's name, as strings.
bool define_script_args(humus::interp::Interpreter& interp, const std::vector<std::string>& args) {
  humus::rt::Value list = humus::rt::Value::nil();
  for (size_t i = args.size(); i-- > 0;) {
    std::optional<humus::rt::Value> s = humus::rt::text_string(args[i]);
    if (!s) {
      humus::cli::write_stderr("humus: argument " + std::to_string(i + 1) + " of the script is not UTF-8 text\n");
      return false;
    }
    list = humus::rt::make_pair(std::move(*s), std::move(list));
  }
  humus::rt::Globals& g = interp.runtime().globals();
  g.set(g.slot("script_args"), std::move(list));
  return true;
}

int run(const Options& o, humus::ast::SourcePtr source) {
  humus::rt::RuntimeOptions ro = runtime_options(o);
  ro.limits = o.limits;
  ro.limits.on_stuck = exit_when_stuck;
  Tracing tracing;
  tracing.diagram_path = o.diagram;
  if (!tracing.setup(o, source->name, ro)) return kExitUsage;
  int status = kExitOk;
  SignalLeave signals(!o.cluster.url.empty() && !o.check && !o.dump_code);
  // A node runs until it leaves: what it prints should not wait for its end.
  if (!o.cluster.url.empty()) std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // Top-level statements run on a thread with the workers' deep stack, so
  // recursion depth is the same everywhere (see stack_guard.hpp).
  humus::rt::run_on_big_stack([&] {
    using humus::interp::Session;
    Session::Options so;
    so.runtime = ro;
    so.cluster = o.cluster;
    so.prelude = !o.no_prelude;
    so.sandbox = o.sandbox;
    so.silenced = o.no_warn;
    std::unique_ptr<Session> joined;
    try {
      joined = std::make_unique<Session>(std::move(so));
    } catch (const humus::rt::ClusterError& e) {
      std::fprintf(stderr, "humus: error: %s\n", e.what());
      status = kExitUsage;
      return;
    }
    Session& session = *joined;
    signals.watch(session.runtime());
    // Destroyed before `joined`, on every way out of this block.
    struct Forget {
      SignalLeave& signals;
      ~Forget() { signals.forget_runtime(); }
    } forget{signals};
    if (!define_script_args(session.interpreter(), o.args)) {
      status = kExitUsage;
      return;
    }
    // The exit status for how the run ended; a limit (--max-memory while
    // compiling, --timeout) is said once, as the run winds down.
    auto finish = [&](Session::Outcome last) {
      switch (session.ending(last)) {
        case Session::Ending::Ok:
          status = kExitOk;
          break;
        case Session::Ending::Failed:
          status = kExitRuntimeError;
          break;
        case Session::Ending::Rejected:
          status = kExitUsage;
          break;
        case Session::Ending::Stopped:
        case Session::Ending::Interrupted:
          report_limit(session.runtime().limit_message());
          status = kExitLimit;
          break;
      }
    };
    Session::Entry entry;
    entry.mode = mode(o);
    // --check loads the prelude too: the script's names are checked against
    // it; and --dump-code, as calls of its functions compile knowing them.
    if (Session::Outcome opened = session.open(); opened != Session::Outcome::Ok) {
      finish(Session::Outcome::CompileError);
      return;
    }
    if (o.dump_code) {  // the code of the script alone, not the prelude's
      entry.names = Session::Names::Unchecked;
      Session::Compiled c = session.compile(source, entry);
      finish(c.unit ? Session::Outcome::Ok : c.outcome);
      if (c.unit) humus::cli::write_stdout(humus::engine::disassemble(*c.unit));
      return;
    }
    // --check keeps no code: each statement's is dropped once compiled.
    entry.keep_code = !o.check;
    // A name defined nowhere stops the script before anything runs; so does
    // a syntax or compile error in an IMPORTed module.
    Session::Outcome ran = session.enter(source, entry);
    const bool rejected = ran == Session::Outcome::SyntaxError || ran == Session::Outcome::CompileError;
    if (o.check || (rejected && session.runtime().limit_reached() == humus::rt::LimitKind::None)) {
      finish(ran);
      return;
    }
    session.start();
    session.wait_idle();
    humus::cli::flush_stdout();
    auto stats = session.runtime().stats();
    spdlog::info("{} events, {} unhandled messages, {} errors, {} actors, on {} worker threads", stats.events,
                 stats.unhandled, stats.errors, stats.actors, session.runtime().threads());
    if (o.stats) print_stats(stats, !o.cluster.url.empty());
    // Dropped messages are silent by default: say that there were some. A
    // test written with the `testing` module ends with its tally.
    humus::cli::write_stderr(session.notes(!o.warn_unhandled && o.trace.empty()));
    finish(ran);
  });
  if (!tracing.finish() && status == kExitOk) status = kExitRuntimeError;
  return status;
}

// The interactive session (docs/repl.md), on a deep stack like a script.
int repl(const Options& o) {
  humus::rt::RuntimeOptions ro = runtime_options(o);
  int status = kExitOk;
  humus::rt::run_on_big_stack([&] { status = humus::repl::run_repl(ro, !o.no_prelude, o.sandbox); });
  return status;
}

}  // namespace

namespace {

int run_command(int argc, char** argv) {
  Options o;
  CLI::App app{"Humus: an interpreter for the Humus actor language", "humus"};
  app.set_version_flag("--version", std::string("humus ") + HUMUS_VERSION);
  app.footer(R"(Examples:
  humus                          an interactive session (the REPL)
  humus hello.hum                run a script
  humus sum.hum 1 2 3            run a script; script_args is ("1", "2", "3")
  humus -e 'SEND "hi" TO print'  run CODE given on the command line
  humus --check app.hum          report syntax, name and compile errors; run nothing
  humus -W --trace app.hum       report dropped messages; print every event
  humus --sandbox --timeout 10 untrusted.hum   stop after 10 s; no file access

Exit status:
  0  the run ended and no error was reported
  1  a runtime error was reported (an actor's event or a top-level statement failed)
  2  usage error, syntax error, undefined name or compile error: nothing ran
  3  a resource limit stopped the run (--max-events, --max-actors, --max-memory, --timeout),
     memory ran out, or the cluster declared this node down (--down-after-ms)

Documentation: docs/cli.md (this command), docs/language.md (the language).)");
  app.add_option("file", o.file, "script to run ('-' reads standard input)");
  app.add_option("args", o.args,
                 "arguments for the script: the global script_args is the list of them, as strings (put -- before "
                 "the first one that starts with '-')");
  app.add_option("-e,--eval", o.code, "run CODE instead of a file");
  app.add_flag("--check", o.check, "parse and compile only; report errors, run nothing");
  app.add_flag("--dump-code", o.dump_code, "compile only, and print the VM code of every statement and function");
  app.add_option("--threads", o.threads, "worker threads (default: one per core; 1 with --seed)")
      ->check(CLI::Range(1u, 1024u));
  app.add_flag("--fixed-threads", o.fixed_threads,
               "keep every worker thread running (default: workers that make the program slower are benched)");
  app.add_option("--budget", o.budget, "messages an actor may handle per turn (default: 32)")
      ->check(CLI::Range(1u, 1u << 20));
  app.add_option("--seed", o.seed,
                 "seed for `random`; with one thread (the default when --seed is given) runs are repeatable");
  app.add_flag("--trace{text}", o.trace,
               "print every message-event to stderr: --trace (or --trace=text) as text, --trace=json as one JSON "
               "object per event (docs/trace.md)")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("--trace-file", o.trace_file, "write --trace=json to FILE instead of stderr");
  app.add_option("--diagram", o.diagram, "draw the run's sequence diagram to FILE, as SVG (docs/trace.md)");
  app.add_flag("-W,--warn,--warn-unhandled", o.warn_unhandled,
               "report every message dropped (unhandled, or sent to a non-actor) and every value quietly ignored "
               "(a non-function applied, a statement's non-block value), with its location");
  app.add_option("--no-warn", o.no_warn,
                 "do not report compile warnings of KIND: shadow (a pattern of IF, ELIF or CASE binds a name "
                 "already bound: $name meant?), arity (a call gives a function the wrong number of arguments)")
      ->check(CLI::IsMember({"shadow", "arity"}))
      ->allow_extra_args(false)
      ->delimiter(',')
      ->type_name("KIND");
  app.add_flag("--whole-script-as-one-block", o.one_block,
               "run the script the uFork way: all of it as one block, ordered by dataflow, in one transaction");
  app.add_option("--show-elements", o.shown.elements,
                 "values in diagnostics and traces show at most N elements (default 200; 0: all)")
      ->check(CLI::Range(uint64_t(0), kMaxShown));
  app.add_option("--show-bytes", o.shown.bytes,
                 "values in diagnostics and traces show at most N bytes (default 4096; 0: all)")
      ->check(CLI::Range(uint64_t(0), kMaxShown));
  app.add_flag("--sandbox", o.sandbox,
               "no file access from Humus code: IMPORT takes standard-library modules only (for untrusted code)");
  app.add_flag("--no-prelude", o.no_prelude, "do not import the prelude (stdlib/prelude.hum) before the script");
  app.add_flag("--lsp", o.lsp, "run as a language server: LSP over standard input and output (docs/editors.md)");
  // Resource limits (docs/reliability.md): exceeding one stops the run, exit status 3.
  app.add_option("--max-events", o.limits.max_events, "stop after N message-events")
      ->check(CLI::Range(uint64_t(1), UINT64_MAX));
  app.add_option("--max-actors", o.limits.max_actors, "stop when the program creates more than N actors")
      ->check(CLI::Range(uint64_t(1), UINT64_MAX));
  app.add_option("--max-steps", o.limits.max_steps,
                 "fail an event (undone; the run goes on) that makes more than N calls: an endless loop")
      ->check(CLI::Range(uint64_t(1), UINT64_MAX));
  std::string max_memory;
  app.add_option("--max-memory", max_memory, "stop when resident memory reaches BYTES (suffixes K, M, G, T)")
      ->check([](const std::string& s) {
        auto n = humus::rt::parse_byte_size(s);
        if (n && *n >= kMinMaxMemory && *n <= kMaxMaxMemory) return std::string();
        return "BYTES must be a size from " + humus::rt::format_byte_size(kMinMaxMemory) + " to " +
               humus::rt::format_byte_size(kMaxMaxMemory) + " (like 512M or 2G), not " + s;
      });
  std::string timeout;
  app.add_option("--timeout", timeout, "stop after SECONDS of wall time")->check([](const std::string& s) {
    return parse_seconds(s) ? std::string()
                            : "SECONDS must be a number greater than 0 and at most 1e9 (about 31 years), not " + s;
  });
  app.add_option("--cycle-check", o.cycle_check,
                 "look for actors only reference cycles hold when N actors live, then as they grow "
                 "(default: 10000; 0: only at the end)")
      ->check([](const std::string& s) {
        uint64_t n = 0;
        auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (ec == std::errc() && end == s.data() + s.size() && n <= kMaxCycleCheck) return std::string();
        return "N must be a whole number of actors from 0 (look only at the end) to 2^40, not " + s;
      });
  app.add_flag("--stats", o.stats,
               "print what the run did to stderr at the end (events, messages across nodes, topics)");
  // A cluster of Humus processes on NATS (docs/distribution.md). Credentials
  // only from the URL or the environment, never as options of their own
  // (a command line is visible to every user of the machine).
  auto* net = "Cluster (docs/distribution.md)";
  app.add_option("--cluster", o.cluster.url,
                 "join the cluster at nats://HOST:PORT (also $HUMUS_CLUSTER); without it the cluster is this process")
      ->group(net);
  app.add_option("--node", o.cluster.node, "this node's name in the cluster (default: HOST-PID)")->group(net);
  app.add_option("--cluster-name", o.cluster.name,
                 "the cluster's name, prefix of its subjects and streams (default: humus)")
      ->group(net);
  // The cluster's timings and counts: whole numbers within a range.
  auto ranged = [&](const char* name, int64_t& value, const char* help, int64_t low, int64_t high) {
    app.add_option(name, value, help)->check(CLI::Range(low, high))->group(net);
  };
  ranged("--heartbeat-ms", o.cluster.heartbeat_ms, "heartbeat interval (default: 500)", 10, 60000);
  ranged("--down-after-ms", o.cluster.down_after_ms, "a node silent this long is down (default: 3000)", 50, 3600000);
  ranged("--retry-delay-ms", o.cluster.retry_delay_ms, "a failed topic delivery comes back after this (default: 1000)",
         0, 3600000);
  ranged("--max-deliveries", o.cluster.max_deliveries,
         "deliveries of a topic value before it goes to NAME.dead (default: 5)", 1, 1000000);
  ranged("--ack-wait-ms", o.cluster.ack_wait_ms,
         "a delivery not settled this long (its node died) goes to another member (default: 10000)", 100, 86400000);
  app.add_option("--topic-replicas", o.cluster.topic_replicas,
                 "servers keeping a copy of each topic; it goes on while most live (default: 1; $HUMUS_TOPIC_REPLICAS)")
      ->check(check_topic_replicas)
      ->group(net);
  app.add_option("--log-level", o.log_level, "runtime log level: trace, debug, info, warn, error, off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }
  o.has_code = app.count("--eval") > 0;
  o.has_seed = app.count("--seed") > 0;
  if (!max_memory.empty()) o.limits.max_memory = *humus::rt::parse_byte_size(max_memory);
  if (!timeout.empty()) o.limits.timeout = *parse_seconds(timeout);
  cluster_from_environment(o.cluster, app.count("--cluster") > 0);
  if (std::string replicas = env("HUMUS_TOPIC_REPLICAS"); !replicas.empty() && !app.count("--topic-replicas")) {
    if (std::string bad = check_topic_replicas(replicas); !bad.empty()) {
      humus::cli::write_stderr("humus: HUMUS_TOPIC_REPLICAS: " + bad + "\n");
      return kExitUsage;
    }
    o.cluster.topic_replicas = std::stoll(replicas);
  }

  auto logger = spdlog::stderr_color_mt("humus");
  logger->set_pattern("humus: %l: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(o.log_level));

  if (!o.trace_file.empty() && o.trace != "json") {
    std::cerr << "humus: --trace-file needs --trace=json\n";
    return kExitUsage;
  }
  if (o.lsp) {
    if (o.has_code || !o.file.empty()) {
      humus::cli::write_stderr("humus: --lsp takes no FILE or -e CODE: the editor sends the documents\n");
      return kExitUsage;
    }
    // On a deep stack like a script: documents are parsed and compiled.
    int status = 0;
    humus::rt::run_on_big_stack([&] { status = humus::lsp::serve(STDIN_FILENO, STDOUT_FILENO); });
    return status;
  }
  if (o.has_code && !o.file.empty()) {
    humus::cli::write_stderr("humus: give either a FILE or -e CODE, not both\n");
    return kExitUsage;
  }
  humus::ast::SourcePtr source;
  if (o.has_code) {
    source = std::make_shared<humus::ast::Source>(humus::ast::Source{"<-e>", o.code});
  } else if (o.file.empty() && isatty(STDIN_FILENO)) {
    return repl(o);  // standard input is a terminal: an interactive session
  } else {
    // --timeout and --max-memory hold from the first byte read: the runtime
    // counts its time from here, and the reader stops at either (issue 34).
    o.limits.started = std::chrono::steady_clock::now();
    humus::interp::ReadLimits read_limits;
    read_limits.max_bytes = o.limits.max_memory;
    if (o.limits.timeout > 0) read_limits.deadline = humus::rt::deadline_after(o.limits.started, o.limits.timeout);
    read_limits.allow_pipe = true;  // humus <(generate), like standard input
    humus::interp::ReadResult read = o.file.empty() || o.file == "-"
                                         ? humus::interp::read_source_fd(STDIN_FILENO, "<stdin>", read_limits)
                                         : humus::interp::read_source(o.file, read_limits);
    if (read.limit != humus::rt::LimitKind::None) {
      const std::string shown = o.file.empty() || o.file == "-" ? "standard input" : "'" + o.file + "'";
      humus::cli::write_stderr("humus: stopped: " + humus::rt::limit_message(read.limit, o.limits) + " while reading " +
                               shown + "\n");
      return kExitLimit;
    }
    if (!read.source) {
      humus::cli::write_stderr("humus: " + read.error + "\n");
      return kExitUsage;
    }
    source = std::move(read.source);
  }
  return run(o, source);
}

}  // namespace

int main(int argc, char** argv) {
  int status;
  try {
    status = run_command(argc, argv);
  } catch (const humus::rt::ThreadStartError& e) {
    // The system's limits (ulimit -v, -u) leave no room for the threads.
    humus::cli::write_stderr(std::string("humus: stopped: ") + e.what() +
                             " (the system's limits, ulimit -v or -u, leave no room: fewer --threads may fit)\n");
    status = kExitLimit;
  } catch (const std::bad_alloc&) {
    // Memory ran out outside any event (start-up, loading).
    humus::cli::write_stderr("humus: stopped: out of memory\n");
    status = kExitLimit;
  }
  // Output that could not be written fails the run (status 1).
  return humus::cli::finish_output(status);
}
