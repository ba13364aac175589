// Out-of-line parts of the compiled nodes: calls, closures, effects and the
// error paths (kept out of the headers so the fast paths stay small).
#include <string>

#include "interpreter/stmt_nodes.hpp"
#include "runtime/actor.hpp"
#include "runtime/integer.hpp"
#include "runtime/print.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::interp {

using rt::runtime_error;

std::string describe(const Value& v) {
  constexpr size_t kMax = 200;
  std::string s = rt::to_string(v);
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

void run_statement_value(const Value& v, rt::Context& cx, const rt::SourceLoc& loc) {
  if (v.is_block()) {
    const auto* b = v.as<rt::BlockValue>();
    b->code->run(*b, cx);
  } else if (!v.is_undefined()) {
    runtime_error(loc, "a statement must give a block or ?, not " + describe(v));
  }
}

void Node::exec(Frame& f) const { run_statement_value(eval(f), f.cx, loc); }

bool Node::exec_behavior(Frame& f) const {
  Value v = eval(f);
  if (v.is_undefined()) return false;
  if (!v.is_block()) runtime_error(loc, "a behavior must give a block or ?, not " + describe(v));
  const auto* b = v.as<rt::BlockValue>();
  b->code->run(*b, f.cx);
  return true;
}

// ------------------------------------------------------------ variables

void LocalNode::unbound() const { runtime_error(loc, "'" + name_ + "' is used before it has a value"); }

void GlobalNode::undefined() const { runtime_error(loc, "'" + name_ + "' is not defined"); }

Value SelfActorNode::eval(Frame& f) const {
  if (!f.cx.self) runtime_error(loc, "SELF is only defined inside an actor's behavior");
  return Value::share(f.cx.self);
}

// ------------------------------------------------------------- closures

namespace {
Value make_closure(const LambdaCode* code, Frame& f) {
  const auto& sources = code->captures->sources;
  rt::Closure* c = rt::Closure::make(code, uint32_t(sources.size()));
  Value result = Value::adopt(c);
  for (size_t i = 0; i < sources.size(); ++i) c->captures()[i] = fetch_capture(sources[i], f);
  return result;
}
}  // namespace

Value fetch_capture(const CaptureSource& src, Frame& f) {
  switch (src.kind) {
    case CaptureSource::Kind::Slot:
      return f.slots[src.index];
    case CaptureSource::Kind::Capture:
      return f.closure->captures()[src.index];
    case CaptureSource::Kind::SelfFn:
      return Value::share(const_cast<rt::Closure*>(f.closure));
    case CaptureSource::Kind::Sibling:
      break;
  }
  // A sibling in a recursive group has the same capture layout as the running
  // member, so it is rebuilt from the running member's captures.
  const rt::Closure* self = f.closure;
  rt::Closure* c = rt::Closure::make(src.sibling, self->count);
  Value result = Value::adopt(c);
  for (uint32_t i = 0; i < self->count; ++i) c->captures()[i] = self->captures()[i];
  return result;
}

Value SiblingNode::eval(Frame& f) const {
  CaptureSource src{CaptureSource::Kind::Sibling, 0, code_};
  return fetch_capture(src, f);
}

Value LambdaNode::eval(Frame& f) const { return make_closure(code_, f); }

// ---------------------------------------------------------------- calls

Value apply_function(const Value& fn, const Value& arg, rt::Context& cx, const rt::SourceLoc& loc) {
  if (fn.is(rt::ObjKind::Closure)) {
    const auto* c = fn.as<rt::Closure>();
    return c->code->apply(*c, arg, cx);
  }
  if (fn.is(rt::ObjKind::Native)) return fn.as<rt::Native>()->fn(arg);
  runtime_error(loc, "cannot apply " + describe(fn) + ": it is not a function");
}

Value CallNode::eval(Frame& f) const {
  Value fn = fn_->eval(f);
  Value arg = arg_ ? arg_->eval(f) : Value::nil();
  return apply_function(fn, arg, f.cx, loc);
}

Value Call2Node::eval(Frame& f) const {
  Value fn = fn_->eval(f);
  Value a = a_->eval(f);
  Value b = b_->eval(f);
  if (fn.is(rt::ObjKind::Native)) {
    const auto* n = fn.as<rt::Native>();
    if (n->fn2) return n->fn2(a, b);
  }
  return apply_function(fn, rt::make_pair(std::move(a), std::move(b)), f.cx, loc);
}

Value TupleNode::eval(Frame& f) const {
  // Evaluate left to right, then pair up from the back.
  // Literals with many elements (a generated table) go to the heap, not the stack.
  const size_t n = elems_.size();
  std::vector<Value> heap;
  Value* vals;
  if (n <= 64) {
    vals = static_cast<Value*>(alloca(sizeof(Value) * n));
  } else {
    heap.resize(n);
    vals = heap.data();
  }
  SlotGuard guard(n <= 64 ? vals : nullptr, n <= 64 ? uint32_t(n) : 0);
  for (size_t i = 0; i < n; ++i) vals[i] = elems_[i]->eval(f);
  Value acc = std::move(vals[n - 1]);
  for (size_t i = n - 1; i-- > 0;) acc = rt::make_pair(std::move(vals[i]), std::move(acc));
  return acc;
}

Value NewNode::eval(Frame& f) const {
  Value beh = beh_->eval(f);
  if (!beh.is_function()) runtime_error(loc, "NEW needs a function as the behavior, not " + describe(beh));
  return f.cx.rt.new_actor(std::move(beh));
}

void LetInNode::bind(Frame& f) const {
  if (!eq_->holds(f)) runtime_error(loc, "LET mismatch: the value does not match the pattern");
}

// ----------------------------------------------------------- statements

void SendStmt::exec(Frame& f) const {
  Value msg = msg_->eval(f);
  Value target = target_->eval(f);
  if (!target.is_actor()) runtime_error(loc, "SEND ... TO needs an actor, not " + describe(target));
  f.cx.fx.sends.push_back({std::move(target), std::move(msg)});
}

void AfterStmt::exec(Frame& f) const {
  Value delay = delay_->eval(f);
  Value msg = msg_->eval(f);
  Value target = target_->eval(f);
  if (!delay.is_small() || delay.small_value() < 0)
    runtime_error(loc, "AFTER needs a delay in milliseconds (an integer >= 0), not " + describe(delay));
  if (!target.is_actor()) runtime_error(loc, "AFTER ... SEND ... TO needs an actor, not " + describe(target));
  f.cx.fx.delayed.push_back({delay.small_value(), std::move(target), std::move(msg)});
}

void BecomeStmt::exec(Frame& f) const {
  Value beh = beh_->eval(f);
  if (!beh.is_function()) runtime_error(loc, "BECOME needs a function as the behavior, not " + describe(beh));
  if (!f.cx.fx.become.empty()) runtime_error(loc, "a second BECOME in one message-event");
  f.cx.fx.become = std::move(beh);
}

void ThrowStmt::exec(Frame& f) const {
  Value v = value_->eval(f);
  std::string text = "THROW " + describe(v);
  throw rt::EventError{loc, std::move(text), std::move(v)};
}

void BindStmt::exec(Frame& f) const {
  if (!eq_->holds(f)) runtime_error(loc, "LET mismatch: the value does not match the pattern");
}

void CreateStmt::exec(Frame& f) const {
  Value beh = beh_->eval(f);
  if (!beh.is_function()) runtime_error(loc, "CREATE ... WITH needs a function as the behavior, not " + describe(beh));
  f.slots[slot_].as<rt::Actor>()->behavior = std::move(beh);
}

void BlockBody::run(Frame& f) const {
  for (uint32_t slot : creates) f.slots[slot] = f.cx.rt.new_actor(Value());
  for (const auto& s : steps) s->exec(f);
}

Value BlockNode::eval(Frame& f) const {
  Value closure = f.closure ? Value::share(const_cast<rt::Closure*>(f.closure)) : Value();
  rt::BlockValue* b = rt::BlockValue::make(&code_, std::move(closure), uint32_t(saved_slots.size()));
  Value result = Value::adopt(b);
  for (size_t i = 0; i < saved_slots.size(); ++i) b->saved()[i] = f.slots[saved_slots[i]];
  return result;
}

void BlockCodeImpl::run(const rt::BlockValue& self, rt::Context& cx) const {
  rt::check_stack(loc);
  const rt::Closure* closure = self.closure.empty() ? nullptr : self.closure.as<rt::Closure>();
  HUMUS_FRAME(f, layout_.slots, closure, cx);
  for (size_t i = 0; i < node_.saved_slots.size(); ++i) f.slots[node_.saved_slots[i]] = self.saved()[i];
  node_.body.run(f);
}

// ------------------------------------------------------------ functions

Value LambdaCode::apply(const rt::Closure& self, const Value& arg, rt::Context& cx) const {
  rt::check_stack(loc);
  HUMUS_FRAME(f, layout.slots, &self, cx);
  if (!param->match(arg, f)) return Value::undefined();
  return body->eval(f);
}

bool LambdaCode::run_behavior(const rt::Closure& self, const Value& msg, rt::Context& cx) const {
  rt::check_stack(loc);
  HUMUS_FRAME(f, layout.slots, &self, cx);
  if (!param->match(msg, f)) return false;
  return body->exec_behavior(f);
}

}  // namespace humus::interp
