#include "runtime/trace.hpp"

#include "runtime/actor.hpp"
#include "runtime/code.hpp"
#include "runtime/context.hpp"
#include "runtime/print.hpp"
#include "runtime/symbols.hpp"

namespace humus::rt {

namespace {
// Whether this thread runs a traced event, and the actors it made so far
// (held, so that their behavior can be read when the event ends).
thread_local bool tl_tracing = false;
thread_local std::vector<Value> tl_created;
}  // namespace

const char* outcome_name(TraceOutcome o) {
  switch (o) {
    case TraceOutcome::Committed:
      return "committed";
    case TraceOutcome::Failed:
      return "failed";
    case TraceOutcome::Unhandled:
      return "unhandled";
  }
  return "?";
}

namespace {
// name(capture, ...) within kTraceTextLimit.
std::string describe_code(const FunctionCode& code, const Value* captures, uint32_t n) {
  if (code.name.empty())  // an anonymous lambda: where it is, as a closure prints
    return "\\" + code.loc.file_name() + ":" + std::to_string(code.loc.line) + ":" + std::to_string(code.loc.column);
  std::string s = code.name;
  if (n == 0) return s;
  s += '(';
  for (uint32_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    print_value(s, captures[i], kTraceShown);
    if (s.size() > kTraceTextLimit) {
      cut_text(s, kTraceTextLimit);
      return s;
    }
  }
  s += ')';
  return s;
}
}  // namespace

std::string describe_behavior(const Value& behavior) {
  if (!behavior.is(ObjKind::Closure)) return behavior.empty() ? std::string() : to_string(behavior, kTraceShown);
  const auto* c = behavior.as<Closure>();
  if (!c->code || c->code->name.empty()) return to_string(behavior);  // \file:line:column
  return describe_code(*c->code, c->captures(), c->count);
}

std::string actor_label(uint64_t id, const std::string& name) {
  if (id == 0) return "top level";
  return name + "@" + std::to_string(id);
}

namespace {
std::string name_of(uint32_t symbol) { return symbol == Actor::kNoName ? std::string() : symbol_name(symbol); }
}  // namespace

void Tracer::begin(TraceEvent& ev, const Actor* actor) {
  tl_tracing = true;
  tl_created.clear();
  if (!actor) return;
  ev.actor = actor->id();
  ev.name = name_of(actor->name());
  ev.behavior = describe_behavior(actor->behavior);
  std::lock_guard lock(mutex_);
  auto it = queued_.find(actor->id());
  if (it == queued_.end()) return;  // sent before the trace began
  const Queued q = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) queued_.erase(it);
  ev.message_id = q.id;
  ev.from = q.from;
  ev.after_ms = q.after_ms;
  ev.from_name = name_of(q.from_name);
}

void Tracer::note_created(const Value& actor) {
  if (tl_tracing) tl_created.push_back(actor);
}

void Tracer::record_created(TraceEvent& ev) {
  for (const Value& a : tl_created) {
    const Actor* actor = a.as<Actor>();
    ev.created.push_back({actor->id(), describe_behavior(actor->behavior), name_of(actor->name())});
  }
  tl_created.clear();
  tl_tracing = false;
}

void Tracer::record_effects(TraceEvent& ev, Context& cx, std::vector<uint64_t>& ids) {
  record_created(ev);
  const Effects& fx = cx.fx;
  if (fx.pending_code)  // a BECOME of a closure not made yet: its code and captures
    ev.become = describe_code(*fx.pending_code, fx.pending, fx.pending_count);
  else if (!fx.become.empty())
    ev.become = describe_behavior(fx.become);
  const uint64_t from = cx.self ? cx.self->id() : 0;
  const uint32_t from_name = cx.self ? cx.self->name() : Actor::kNoName;
  for (const Effects::Run& r : fx.runs) {
    auto& queue = queued_[r.target->id()];
    const std::string to_name = name_of(r.target->name());
    // The run's messages: single nodes and batches, linked from first to last.
    for (Message* m = r.first;; m = m->next.load(std::memory_order_relaxed)) {
      auto record = [&](const Value& v) {
        ev.sent.push_back({next_id_, r.target->id(), to_string(v, kTraceShown), -1, to_name});
        queue.push_back({next_id_++, from, -1, from_name});
      };
      if (!m->is_batch()) {
        record(m->payload);
      } else {
        auto* b = static_cast<Batch*>(m);
        for (uint32_t i = 0; i < b->count; ++i) record(b->items()[i]);
      }
      if (m == r.last) break;
    }
  }
  for (const Effects::ConsoleSend& c : fx.console) {
    ev.sent.push_back({next_id_, c.target->id(), to_string(c.message, kTraceShown), -1, name_of(c.target->name())});
    TraceEvent& e = console_.emplace_back();
    e.time_us = ev.time_us + ev.duration_us;
    e.worker = ev.worker;
    e.actor = c.target->id();
    e.name = name_of(c.target->name());
    e.behavior = describe_behavior(c.target->behavior);
    e.message_id = next_id_++;
    e.from = from;
    e.from_name = name_of(from_name);
    e.message = ev.sent.back().message;
  }
  ids.clear();
  for (const Effects::Delayed& d : fx.delayed) {
    const Actor* target = d.target.as<Actor>();
    ev.sent.push_back({next_id_, target->id(), to_string(d.message, kTraceShown), d.delay_ms, name_of(target->name())});
    delayed_[next_id_] = {next_id_, from, d.delay_ms, from_name};
    ids.push_back(next_id_++);
  }
}

void Tracer::finish(TraceEvent& ev) {
  record_created(ev);
  std::lock_guard lock(mutex_);
  emit(ev);
}

void Tracer::emit_console() {
  for (TraceEvent& e : console_) emit(e);
  console_.clear();
}

void Tracer::emit(TraceEvent& ev) {
  // A top-level statement that only defined names is no event worth a line.
  if (ev.actor == 0 && ev.outcome == TraceOutcome::Committed && ev.sent.empty() && ev.created.empty()) return;
  ev.seq = next_seq_++;
  sink_.event(ev);
}

}  // namespace humus::rt
