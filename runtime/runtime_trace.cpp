// The traced paths of the Runtime (runtime/trace.hpp): the same event as
// run_event, with the text trace line and, when a sink is set, a record of
// what it did as it commits or fails. Only taken while a trace is on, so
// nothing here is on the hot path.
#include "runtime/print.hpp"
#include "runtime/runtime.hpp"

namespace humus::rt {

void Runtime::run_event_traced(Actor& actor, Value& message, Context& cx) {
  if (text_trace_.load(std::memory_order_relaxed))
    write_err("trace: " + actor_label(actor) + " <- " + shown(message) + "\n");
  Tracer* t = tracer_.get();
  TraceEvent ev;
  if (t) {
    ev.time_us = now_us();
    ev.worker = cx.worker;
    t->begin(ev, &actor);
    ev.message = to_string(message, kTraceShown);
  }
  auto finish = [&](TraceOutcome outcome) {
    if (!t) return;
    ev.outcome = outcome;
    ev.duration_us = now_us() - ev.time_us;
    t->finish(ev);
  };
  auto failed = [&](const EventError& e) {
    cx.fx.clear();
    report_error(e, &actor, &message);
    settle_failed_delivery(cx);
    ev.error = e.message;
    ev.where = e.loc;
    finish(TraceOutcome::Failed);
  };
  try {
    if (!apply_behavior(actor, message, cx)) {
      cx.fx.clear();
      Context::bump(cx.unhandled);
      report_unhandled(actor, message);
      settle_failed_delivery(cx);
      finish(TraceOutcome::Unhandled);
      return;
    }
    const bool unhandled = cx.no_match.line && !cx.fx.any();
    if (t)
      commit_traced(cx, ev);
    else
      commit(cx);
    if (unhandled) [[unlikely]]
      note_no_match(actor, message, cx);
  } catch (const EventError& e) {
    failed(e);
  } catch (const memory::MemoryCapReached&) {
    stop_for_limit(LimitKind::Memory);
    failed(EventError{{}, "out of memory", Value()});
  } catch (const std::bad_alloc&) {
    cx.fx.clear();
    settle_failed_delivery(cx);
    if (!report_out_of_memory({}, &actor, &message)) return;  // the run stops: no record of it
    ev.error = "out of memory";
    finish(TraceOutcome::Failed);
  }
}

void Runtime::commit_traced(Context& cx, TraceEvent& ev) {
  std::vector<uint64_t> ids;  // the delayed sends' message ids
  ev.duration_us = now_us() - ev.time_us;
  tracer_->commit(ev, cx, ids, [&] {
    // The delayed sends are scheduled here, each with its message id, and
    // before the messages (as apply does: a cancel must find its timer).
    std::vector<Effects::Delayed> delayed = std::move(cx.fx.delayed);
    cx.fx.delayed.clear();
    for (size_t i = 0; i < delayed.size(); ++i)
      timers_.schedule(delayed[i].delay_ms, std::move(delayed[i].target), std::move(delayed[i].message), ids[i],
                       delayed[i].timer_id);
    commit(cx);
  });
}

void Runtime::fire_traced(uint64_t id, Value target, Value message) {
  Actor* a = target.as<Actor>();
  tracer_->fire(id, a->id(), [&] { dispatcher_.enqueue(a, std::move(message)); });
}

void Runtime::begin_outside(Context& cx) {
  use_integer_limit(integer_limit_);  // top-level code and host calls: this runtime's integer limit
  cx.steps = 0;
  cx.epoch = interrupt_epoch_.load(std::memory_order_relaxed);
  if (!tracer_) return;
  cx.outside_trace = std::make_unique<TraceEvent>();
  cx.outside_trace->time_us = now_us();
  tracer_->begin(*cx.outside_trace, nullptr);
}

void Runtime::end_outside(Context& cx, const EventError* failed, const SourceLoc& where) {
  cx.no_match = {};  // a top-level statement handles no message
  std::unique_ptr<TraceEvent> ev = std::move(cx.outside_trace);
  if (!ev) {
    if (failed)
      cx.fx.clear();
    else
      commit(cx);
    return;
  }
  ev->where = where;
  ev->duration_us = now_us() - ev->time_us;
  if (failed) {
    cx.fx.clear();
    ev->outcome = TraceOutcome::Failed;
    ev->error = failed->message;
    if (failed->loc.file) ev->where = failed->loc;
    tracer_->finish(*ev);
    return;
  }
  commit_traced(cx, *ev);
}

}  // namespace humus::rt
