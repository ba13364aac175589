// humus::Runtime (include/humus/runtime.hpp) over a script session (interp::Session).
//
// The one checkpoint of the API: every public call enters through Impl's
// `enter()`, which takes the lifetime lock shared (so shutdown waits for the
// calls in flight, and calls after it throw), and loading code also takes
// `load_mutex` (the interpreter compiles one unit at a time).
//
// C++ callables reach the runtime without a new object kind: a native
// function or behavior is an ordinary Closure whose FunctionCode is one of
// the classes below, holding the std::function. The dispatcher and the call
// nodes already go through FunctionCode's virtual apply/run_behavior, so
// nothing on the interpreter's hot path changes. The code objects live as
// long as the Runtime (they are what the closures point to).
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "humus/humus.hpp"
#include "interpreter/engine/vm.hpp"
#include "interpreter/session.hpp"
#include "runtime/code.hpp"

namespace humus {

namespace {

const rt::Value& view(const Value& v) { return *reinterpret_cast<const rt::Value*>(&v); }
rt::Value to_rt(const Value& v) { return view(v); }  // a new reference
Value to_public(const rt::Value& v) { return Value::from_raw_bits(v.bits()); }

// Runs a host callback; a C++ exception fails the event as a runtime error
// would. The error has no location of its own (the host code has none): a
// top-level statement reports its own, an actor's event its message.
template <class F>
auto guarded(const std::string& what, F&& f) {
  static const rt::SourceLoc loc{};
  try {
    return f();
  } catch (const rt::EventError&) {
    throw;
  } catch (const std::exception& e) {
    rt::runtime_error(loc, what + " threw: " + e.what());
  } catch (...) {
    rt::runtime_error(loc, what + " threw an exception");
  }
}

// A C++ function as a Humus function: `name(x)` calls fn(x).
class HostFunctionCode final : public rt::FunctionCode {
 public:
  HostFunctionCode(const std::string& host_name, Function fn)
      : rt::FunctionCode(rt::SourceLoc{}), file_("<native " + host_name + ">"), fn_(std::move(fn)) {
    loc.file = &file_;
    name = host_name;
  }
  rt::Value apply(const rt::Closure&, const rt::Value& arg, rt::Context&) const override {
    return guarded(file_, [&] { return to_rt(fn_(to_public(arg))); });
  }
  // Used as a behavior, it is a Humus function: its result must be a block.
  bool run_behavior(const rt::Closure& self, const rt::Value& msg, rt::Context& cx) const override {
    rt::Value v = apply(self, msg, cx);
    if (!v.is_block()) return false;
    engine::run_statement_value(std::move(v), loc, cx);
    return true;
  }

 private:
  std::string file_;
  Function fn_;
};

}  // namespace

struct RuntimeAccess {
  static ActorContext context(Runtime::Impl* impl, rt::Context* cx) { return ActorContext(impl, cx); }
  static Runtime::Impl& impl(const ActorContext& a) { return *static_cast<Runtime::Impl*>(a.impl_); }
  static rt::Context& cx(const ActorContext& a) { return *static_cast<rt::Context*>(a.cx_); }
};

namespace {

// A C++ behavior: handles each message with an ActorContext over the event.
class HostBehaviorCode final : public rt::FunctionCode {
 public:
  HostBehaviorCode(Runtime::Impl* impl, Behavior b)
      : rt::FunctionCode(rt::SourceLoc{}), impl_(impl), behavior_(std::move(b)) {
    loc.file = &file_;
  }
  rt::Value apply(const rt::Closure&, const rt::Value&, rt::Context&) const override {
    return rt::Value::undefined();  // a behavior called as a function gives no block
  }
  bool run_behavior(const rt::Closure&, const rt::Value& msg, rt::Context& cx) const override {
    ActorContext ax = RuntimeAccess::context(impl_, &cx);
    guarded(file_, [&] { behavior_(ax, to_public(msg)); });
    return true;
  }

 private:
  static inline const std::string file_ = "<native behavior>";
  Runtime::Impl* impl_;
  Behavior behavior_;
};

// The customer of ask(): capture 0 is the ask's id (a small integer). The
// same code with `timeout` set is the actor its timer fires at.
class AskCode final : public rt::FunctionCode {
 public:
  AskCode(Runtime::Impl* impl, bool timeout) : rt::FunctionCode(rt::SourceLoc{}), impl_(impl), timeout_(timeout) {
    loc.file = &file_;
  }
  rt::Value apply(const rt::Closure&, const rt::Value&, rt::Context&) const override { return rt::Value::undefined(); }
  bool run_behavior(const rt::Closure& self, const rt::Value& msg, rt::Context&) const override;

 private:
  static inline const std::string file_ = "<ask customer>";
  Runtime::Impl* impl_;
  bool timeout_;
};

Diagnostic convert(const interp::Interpreter::Diagnostic& d) {
  return Diagnostic{d.file, d.line, d.column,
                    d.severity == "warning" ? Diagnostic::Severity::Warning : Diagnostic::Severity::Error, d.message};
}

Result::Status status_of(interp::Interpreter::Outcome o) {
  switch (o) {
    case interp::Interpreter::Outcome::Ok:
      return Result::Status::Ok;
    case interp::Interpreter::Outcome::SyntaxError:
      return Result::Status::SyntaxError;
    case interp::Interpreter::Outcome::CompileError:
      return Result::Status::CompileError;
    case interp::Interpreter::Outcome::RuntimeError:
      return Result::Status::RuntimeError;
  }
  return Result::Status::RuntimeError;
}

LogLevel level_of(std::string_view text) {
  if (text.starts_with("trace:")) return LogLevel::Trace;
  if (text.find(": warning:") != std::string_view::npos) return LogLevel::Warning;
  return LogLevel::Error;
}

}  // namespace

// Hidden, though nested in an exported class: none of it is API.
struct __attribute__((visibility("hidden"))) Runtime::Impl {
  Runtime& owner;
  Options options;

  // The code of native functions and behaviors (see ~Impl for their end).
  std::mutex codes_mutex;
  std::vector<std::unique_ptr<rt::FunctionCode>> codes;
  AskCode ask_code{this, false}, ask_timeout_code{this, true};

  struct Ask {
    std::promise<Value> promise;
    uint64_t timer = 0;  // its timeout's timer id, 0 for none
    int64_t timeout_ms = 0;
  };
  std::mutex asks_mutex;
  std::unordered_map<int64_t, Ask> asks;
  int64_t next_ask = 1;

  mutable std::shared_mutex life;  // shared: a call in progress; exclusive: shutdown
  bool down = false;

  std::mutex load_mutex;                          // one unit loads at a time
  std::vector<Diagnostic>* collecting = nullptr;  // the Result being filled (under load_mutex)

  // Contexts for host calls (Runtime::call): one per call in flight, kept
  // for the next (each holds a VM stack that grows once).
  std::mutex contexts_mutex;
  std::vector<std::unique_ptr<rt::Context>> contexts;

  std::unique_ptr<interp::Session> session;

  Impl(Runtime& r, Options o) : owner(r), options(std::move(o)) {
    rt::RuntimeOptions ro;
    ro.threads = options.threads ? options.threads : 1;
    ro.budget = options.budget ? options.budget : 32;
    ro.workers.adaptive = !options.fixed_threads;
    ro.seed = options.seed;
    ro.out = options.out;
    ro.err = options.err;
    if (!ro.err && options.logger)
      ro.err = [log = options.logger](std::string_view s) { log(level_of(s), s); };
    else if (ro.err && options.logger)
      ro.err = [err = options.err, log = options.logger](std::string_view s) {
        err(s);
        log(level_of(s), s);
      };
    ro.trace = options.trace;
    ro.sandbox = options.sandbox;
    ro.devices.standard_input = options.devices.standard_input;
    ro.devices.files = options.devices.files;
    ro.devices.clock = options.devices.clock;
    ro.warn_unhandled = options.warn_unhandled;
    ro.cycle_check = options.cycle_check;
    ro.limits.max_events = options.limits.max_events;
    ro.limits.max_actors = options.limits.max_actors;
    ro.limits.max_memory = options.limits.max_memory;
    ro.limits.timeout = options.limits.timeout_seconds;
    const Options::Cluster& c = options.cluster;
    rt::ClusterOptions cluster{c.url,           c.node,           c.name,           c.user,        c.password,
                               c.token,         c.tls_ca,         c.tls_cert,       c.tls_key,     c.heartbeat_ms,
                               c.down_after_ms, c.retry_delay_ms, c.max_deliveries, c.ack_wait_ms, c.topic_replicas};
    interp::Session::Options so;
    so.runtime = std::move(ro);
    so.cluster = std::move(cluster);
    so.prelude = options.prelude;
    so.sandbox = options.sandbox;
    so.diagnostics = [this](const interp::Interpreter::Diagnostic& d) {
      if (collecting) collecting->push_back(convert(d));
    };
    try {
      session = std::make_unique<interp::Session>(std::move(so));
    } catch (const rt::ClusterError& e) {
      throw Error(std::string("humus::Runtime: ") + e.what());
    }
  }

  // The workers stop first; then the host's callables go, with any Values
  // they captured (which may be globals, freed with the interpreter); then
  // the interpreter. Closures still pointing to the codes are only freed
  // after that, which never looks at their code.
  ~Impl() {
    session->runtime().stop();
    contexts.clear();
    codes.clear();
    session.reset();
  }

  rt::Runtime& rt() { return session->runtime(); }

  std::shared_lock<std::shared_mutex> enter() const {
    std::shared_lock lock(life);
    if (down) throw Error("humus::Runtime: used after shutdown()");
    return lock;
  }

  template <class Code, class... Args>
  const Code* keep(Args&&... args) {
    auto code = std::make_unique<Code>(std::forward<Args>(args)...);
    const Code* raw = code.get();
    std::lock_guard lock(codes_mutex);
    codes.push_back(std::move(code));
    return raw;
  }

  rt::Value closure(const rt::FunctionCode* code) { return rt::Value::adopt(rt::Closure::make(code, 0)); }
  rt::Value behavior(Behavior b) { return closure(keep<HostBehaviorCode>(this, std::move(b))); }

  // Loads and runs `source`; `values` collects expression values (eval).
  // A name defined nowhere: in a file, an error before anything runs, as
  // the humus command says it; in an eval, a warning when only a body reads
  // it, as in the REPL (a later eval may define it), and the runtime error
  // when top-level code does.
  Result load(ast::SourcePtr source, bool values, ScriptMode mode) {
    Result r;
    std::lock_guard lock(load_mutex);
    collecting = &r.diagnostics;
    interp::Session::Entry entry;
    entry.mode = mode == ScriptMode::OneBlock ? interp::Interpreter::ScriptMode::OneBlock
                                              : interp::Interpreter::ScriptMode::Statements;
    entry.names = values ? interp::Session::Names::Warnings : interp::Session::Names::Errors;
    if (values) entry.on_value = [&](const rt::Value& v) { r.value = to_public(v); };
    r.status = status_of(session->enter(std::move(source), entry));
    collecting = nullptr;
    return r;
  }

  // The prelude (when asked for), with its diagnostics in a Result.
  Result open() {
    Result r;
    std::lock_guard lock(load_mutex);
    collecting = &r.diagnostics;
    r.status = status_of(session->open());
    collecting = nullptr;
    return r;
  }

  Result import(const std::string& module) {
    Result r;
    std::lock_guard lock(load_mutex);
    collecting = &r.diagnostics;
    r.status = status_of(session->interpreter().import(module));
    collecting = nullptr;
    return r;
  }

  // Applies `fn` to `args` on this thread, as a top-level statement runs:
  // a transaction of its own, whose failure is a Result.
  Result call(const Value& fn, std::span<const Value> args, const std::string& what) {
    Result r;
    if (!fn.is_function()) return failed(std::move(r), what, "not a function: " + fn.to_string());
    std::unique_ptr<rt::Context> cx;
    {
      std::lock_guard lock(contexts_mutex);
      if (!contexts.empty()) {
        cx = std::move(contexts.back());
        contexts.pop_back();
      }
    }
    if (!cx) cx = rt().make_context();
    static const rt::SourceLoc loc{};
    rt::Runtime::OutsideScope outside(rt());  // no cycle collection while it makes values
    try {
      std::vector<rt::Value> values;  // f() is f(NIL); f(a, b) spreads as in Humus
      if (args.empty()) values.push_back(rt::Value::nil());
      for (const Value& a : args) values.push_back(to_rt(a));
      r.value = to_public(engine::call_value(to_rt(fn), values.data(), uint32_t(values.size()), *cx, loc));
      rt().commit(*cx);
    } catch (const rt::EventError& e) {
      cx->fx.clear();
      r = failed(std::move(r), e.loc.file ? e.loc.file_name() : what, "runtime error: " + e.message, e.loc.line,
                 e.loc.column);
    } catch (const std::exception& e) {
      cx->fx.clear();
      r = failed(std::move(r), what, std::string("runtime error: ") + e.what());
    }
    std::lock_guard lock(contexts_mutex);
    contexts.push_back(std::move(cx));
    return r;
  }

  static Result failed(Result r, std::string file, std::string message, unsigned line = 0, unsigned column = 0) {
    r.status = Result::Status::RuntimeError;
    r.value = Value();
    r.diagnostics.push_back(Diagnostic{std::move(file), line, column, Diagnostic::Severity::Error, std::move(message)});
    return r;
  }

  // The first of the reply and the timeout settles the ask; the other is ignored.
  void complete_ask(int64_t id, const rt::Value* reply) {
    Ask a;
    {
      std::lock_guard lock(asks_mutex);
      auto it = asks.find(id);
      if (it == asks.end()) return;  // a second reply, or one after the timeout
      a = std::move(it->second);
      asks.erase(it);
    }
    if (reply) {
      if (a.timer) rt().cancel_timer(a.timer);  // else a pending timer keeps the runtime busy
      a.promise.set_value(to_public(*reply));
    } else {
      a.promise.set_exception(std::make_exception_ptr(
          Error("humus::Runtime::ask: no reply within " + std::to_string(a.timeout_ms) + " ms")));
    }
  }
};

bool AskCode::run_behavior(const rt::Closure& self, const rt::Value& msg, rt::Context&) const {
  impl_->complete_ask(self.captures()[0].small_value(), timeout_ ? nullptr : &msg);
  return true;
}

// ---------------------------------------------------------------- Diagnostic, Result

std::string Diagnostic::to_string() const {
  std::string s = file;
  if (line) s += ":" + std::to_string(line) + ":" + std::to_string(column);
  s += severity == Severity::Warning ? ": warning: " : ": error: ";
  return s + message;
}

std::string Result::message() const {
  std::string s;
  for (const auto& d : diagnostics) s += d.to_string() + "\n";
  return s;
}

const char* version() { return HUMUS_VERSION; }

// ---------------------------------------------------------------- ActorContext

namespace {
void check_actor(const Value& v, const char* what) {
  if (!v.is_actor()) throw Error(std::string(what) + ": not an actor: " + v.to_string());
}
}  // namespace

Value ActorContext::self() const {
  rt::Context& cx = RuntimeAccess::cx(*this);
  return Value::from_raw_bits(reinterpret_cast<uint64_t>(static_cast<rt::Object*>(cx.self)));
}

void ActorContext::send(const Value& target, Value message) {
  check_actor(target, "humus::ActorContext::send");
  RuntimeAccess::cx(*this).fx.send(to_rt(target).as<rt::Actor>(), to_rt(message));
}

void ActorContext::send_after(std::chrono::milliseconds delay, const Value& target, Value message) {
  check_actor(target, "humus::ActorContext::send_after");
  RuntimeAccess::cx(*this).fx.delayed.push_back({int64_t(delay.count()), to_rt(target), to_rt(message)});
}

void ActorContext::become(const Value& behavior) {
  if (!behavior.is_function()) throw Error("humus::ActorContext::become: not a function: " + behavior.to_string());
  RuntimeAccess::cx(*this).fx.become = to_rt(behavior);
}

void ActorContext::become(Behavior behavior) {
  RuntimeAccess::cx(*this).fx.become = RuntimeAccess::impl(*this).behavior(std::move(behavior));
}

Value ActorContext::create(const Value& behavior) {
  if (!behavior.is_function()) throw Error("humus::ActorContext::create: not a function: " + behavior.to_string());
  return to_public(RuntimeAccess::cx(*this).rt.new_actor(to_rt(behavior)));
}

Runtime& ActorContext::runtime() const { return RuntimeAccess::impl(*this).owner; }

// ---------------------------------------------------------------- Runtime

Runtime::Runtime(Options options) : impl_(std::make_unique<Impl>(*this, std::move(options))) {
  impl_->session->start();
  if (Result r = impl_->open(); !r) throw Error("humus::Runtime: the prelude did not load:\n" + r.message());
}

Runtime::~Runtime() { shutdown(); }

Result Runtime::eval(std::string_view code, std::string_view name, ScriptMode mode) {
  auto life = impl_->enter();
  return impl_->load(std::make_shared<ast::Source>(ast::Source{std::string(name), std::string(code)}), true, mode);
}

Result Runtime::load_file(const std::string& path, ScriptMode mode) {
  auto life = impl_->enter();
  std::string error;
  ast::SourcePtr source = interp::read_source_file(path, error);
  if (!source) {
    Result r;
    r.status = Result::Status::IoError;
    r.diagnostics.push_back(Diagnostic{path, 0, 0, Diagnostic::Severity::Error, error});
    return r;
  }
  return impl_->load(std::move(source), false, mode);
}

Result Runtime::import(const std::string& module) {
  auto life = impl_->enter();
  return impl_->import(module);
}

std::optional<Value> Runtime::global(std::string_view name) const {
  auto life = impl_->enter();
  rt::Globals& g = impl_->session->runtime().globals();
  auto slot = g.find(name);
  if (!slot) return std::nullopt;
  rt::Value v = g.get(*slot);
  if (v.empty()) return std::nullopt;
  return to_public(v);
}

void Runtime::define(std::string_view name, const Value& value) {
  auto life = impl_->enter();
  rt::Globals& g = impl_->rt().globals();
  g.set(g.slot(name), to_rt(value));
}

void Runtime::define_function(std::string_view name, Function fn) { define(name, function(std::move(fn), name)); }

Value Runtime::define_actor(std::string_view name, Behavior behavior) {
  Value actor = create(std::move(behavior));
  define(name, actor);
  return actor;
}

Result Runtime::call_args(std::string_view name, std::span<const Value> args) {
  auto life = impl_->enter();
  const std::string what = "<call " + std::string(name) + ">";
  rt::Globals& g = impl_->rt().globals();
  auto slot = g.find(name);
  rt::Value fn = slot ? g.get(*slot) : rt::Value();
  if (fn.empty()) return Impl::failed(Result(), what, "no global named '" + std::string(name) + "'");
  return impl_->call(to_public(fn), args, what);
}

Result Runtime::call_args(const Value& function, std::span<const Value> args) {
  auto life = impl_->enter();
  return impl_->call(function, args, "<call>");
}

Value Runtime::function(Function fn, std::string_view name) {
  auto life = impl_->enter();
  if (!fn) throw Error("humus::Runtime::function: empty std::function");
  return to_public(impl_->closure(impl_->keep<HostFunctionCode>(std::string(name), std::move(fn))));
}

Value Runtime::behavior(Behavior b) {
  auto life = impl_->enter();
  if (!b) throw Error("humus::Runtime::behavior: empty std::function");
  return to_public(impl_->behavior(std::move(b)));
}

Value Runtime::create(Behavior b) { return create(behavior(std::move(b))); }

Value Runtime::create(const Value& behavior) {
  auto life = impl_->enter();
  if (!behavior.is_function()) throw Error("humus::Runtime::create: not a function: " + behavior.to_string());
  return to_public(impl_->rt().new_actor(to_rt(behavior)));
}

void Runtime::send(const Value& actor, Value message) {
  check_actor(actor, "humus::Runtime::send");
  auto life = impl_->enter();
  impl_->rt().send(view(actor), to_rt(message));
}

std::future<Value> Runtime::ask(const Value& actor, Value request, std::chrono::milliseconds timeout) {
  check_actor(actor, "humus::Runtime::ask");
  auto life = impl_->enter();
  rt::Runtime& r = impl_->rt();
  int64_t id;
  std::future<Value> f;
  const uint64_t timer = timeout.count() > 0 ? r.reserve_timer_id() : 0;
  {
    std::lock_guard lock(impl_->asks_mutex);
    id = impl_->next_ask++;
    Impl::Ask& a = impl_->asks[id];
    a.timer = timer;
    a.timeout_ms = timeout.count();
    f = a.promise.get_future();
  }
  auto one_shot = [&](const AskCode& code) {
    rt::Closure* c = rt::Closure::make(&code, 1);
    c->captures()[0] = rt::Value::small(id);
    return r.new_actor(rt::Value::adopt(c));
  };
  if (timer) r.schedule_timer(timeout.count(), one_shot(impl_->ask_timeout_code), rt::Value::nil(), timer);
  r.send(view(actor), rt::make_pair(one_shot(impl_->ask_code), to_rt(request)));
  return f;
}

void Runtime::run_until_idle() {
  // In slices, so that a shutdown() from another thread ends the wait.
  while (!run_for(std::chrono::milliseconds(50))) {
  }  // (the interpreter outlives shutdown, so waiting on it stays safe)
}

bool Runtime::run_for(std::chrono::milliseconds limit) {
  if (is_shut_down()) return true;
  rt::Runtime* r = &impl_->rt();
  // Not under the lifetime lock: shutdown() must be able to proceed. The
  // interpreter (and so `r`) lives until ~Runtime, after shutdown.
  return r->wait_idle_for(limit) || is_shut_down();
}

void Runtime::interrupt() { impl_->rt().interrupt_events(); }

void Runtime::collect_cycles() {
  auto life = impl_->enter();
  impl_->rt().collect_cycles();
}

void Runtime::shutdown() {
  std::unique_lock lock(impl_->life);
  if (impl_->down) return;
  impl_->down = true;
  impl_->rt().stop();
  std::unordered_map<int64_t, Impl::Ask> pending;
  {
    std::lock_guard asks(impl_->asks_mutex);
    pending.swap(impl_->asks);
  }
  for (auto& [id, p] : pending)
    p.promise.set_exception(
        std::make_exception_ptr(Error("humus::Runtime::ask: the runtime shut down before a reply")));
}

bool Runtime::is_shut_down() const {
  std::shared_lock lock(impl_->life);
  return impl_->down;
}

std::optional<std::string> Runtime::limit_reached() const {
  auto life = impl_->enter();
  const rt::Runtime& r = impl_->session->runtime();
  if (r.limit_reached() == rt::LimitKind::None) return std::nullopt;
  return r.limit_message();
}

RuntimeStats Runtime::stats() const {
  auto life = impl_->enter();
  rt::RuntimeStats s = impl_->session->runtime().stats();
  RuntimeStats out{s.events, s.unhandled, s.errors, s.actors, s.queued};
  out.remote_sent = s.distribution.sent;
  out.remote_received = s.distribution.received;
  out.remote_dropped = s.distribution.dropped;
  out.remote_lost = s.distribution.lost;
  out.wire_rejected = s.distribution.rejected;
  out.topic_appended = s.distribution.appended;
  out.topic_delivered = s.distribution.delivered;
  out.topic_redelivered = s.distribution.redelivered;
  out.dead_letters = s.distribution.dead_letters;
  out.live_actors = s.live_actors;
  out.collections = s.cycles.collections;
  out.actors_collected = s.cycles.actors_collected;
  out.collect_pause_us_total = s.cycles.pause_us_total;
  out.collect_pause_us_max = s.cycles.pause_us_max;
  return out;
}

void Runtime::leave_cluster() {
  auto life = impl_->enter();
  impl_->rt().leave_cluster();
}

}  // namespace humus
