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

Value statement_block(Value v, const rt::SourceLoc& loc) {
  if (v.is_block()) return v;
  if (!v.is_undefined()) runtime_error(loc, "a statement must give a block or ?, not " + describe(v));
  return Value();
}

Value Node::exec(Frame& f) const { return statement_block(eval(f), loc); }

std::optional<Value> Node::exec_behavior(Frame& f) const {
  Value v = eval(f);
  if (v.is_undefined()) return std::nullopt;
  if (!v.is_block()) runtime_error(loc, "a behavior must give a block or ?, not " + describe(v));
  return v;
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

namespace {
bool is_tail_callable(const Value& fn) {
  return fn.is(rt::ObjKind::Closure) && fn.as<rt::Closure>()->code->tail_callable;
}
}  // namespace

bool CallNode::eval_tail(Frame& f, TailCall& tc) const {
  Value fn = fn_->eval(f);
  Value arg = arg_ ? arg_->eval(f) : Value::nil();
  if (is_tail_callable(fn)) {
    tc.fn = std::move(fn);
    tc.arg = std::move(arg);
    return true;
  }
  tc.value = apply_function(fn, arg, f.cx, loc);
  return false;
}

namespace {
// (vals[0], ..., vals[n-1]) as right-nested pairs, built from the back.
Value tuple_of(Value* vals, uint32_t n) {
  Value acc = std::move(vals[n - 1]);
  for (uint32_t i = n - 1; i-- > 0;) acc = rt::make_pair(std::move(vals[i]), std::move(acc));
  return acc;
}

// The callee's code when it can take `n` arguments without their tuple.
const LambdaCode* spread_target(const Value& fn, uint32_t n) {
  if (!is_tail_callable(fn)) return nullptr;
  const auto* code = static_cast<const LambdaCode*>(fn.as<rt::Closure>()->code);
  return code->spread.size() == n ? code : nullptr;
}
}  // namespace

Value CallNNode::eval(Frame& f) const {
  Value fn = fn_->eval(f);
  const auto n = uint32_t(args_.size());
  Value vals[TailCall::kMaxSpread];
  for (uint32_t i = 0; i < n; ++i) vals[i] = args_[i]->eval(f);
  if (fn.is(rt::ObjKind::Native)) {
    const auto* nat = fn.as<rt::Native>();
    if (n == 2 && nat->fn2) return nat->fn2(vals[0], vals[1]);
  } else if (const LambdaCode* code = spread_target(fn, n)) {
    return code->apply_spread(*fn.as<rt::Closure>(), vals, n, f.cx);
  }
  return apply_function(fn, tuple_of(vals, n), f.cx, loc);
}

bool CallNNode::eval_tail(Frame& f, TailCall& tc) const {
  Value fn = fn_->eval(f);
  if (!is_tail_callable(fn)) {
    const auto n = uint32_t(args_.size());
    Value vals[TailCall::kMaxSpread];
    for (uint32_t i = 0; i < n; ++i) vals[i] = args_[i]->eval(f);
    if (fn.is(rt::ObjKind::Native) && n == 2 && fn.as<rt::Native>()->fn2)
      tc.value = fn.as<rt::Native>()->fn2(vals[0], vals[1]);
    else
      tc.value = apply_function(fn, tuple_of(vals, n), f.cx, loc);
    return false;
  }
  const auto n = uint32_t(args_.size());
  for (uint32_t i = 0; i < n; ++i) tc.args[i] = args_[i]->eval(f);
  if (spread_target(fn, n)) {
    tc.nargs = n;
  } else {
    tc.arg = tuple_of(tc.args, n);
    tc.nargs = 0;
  }
  tc.fn = std::move(fn);
  return true;
}

Value TupleNode::eval(Frame& f) const {
  if (elems_.size() == 2) {  // the common case, without the scratch array
    Value a = elems_[0]->eval(f);
    Value b = elems_[1]->eval(f);
    return rt::make_pair(std::move(a), std::move(b));
  }
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

Value SendStmt::exec(Frame& f) const {
  Value msg = msg_->eval(f);
  Value target = target_->eval(f);
  if (!target.is_actor()) runtime_error(loc, "SEND ... TO needs an actor, not " + describe(target));
  f.cx.fx.sends.push_back({std::move(target), std::move(msg)});
  return Value();
}

Value AfterStmt::exec(Frame& f) const {
  Value delay = delay_->eval(f);
  Value msg = msg_->eval(f);
  Value target = target_->eval(f);
  if (!delay.is_small() || delay.small_value() < 0)
    runtime_error(loc, "AFTER needs a delay in milliseconds (an integer >= 0), not " + describe(delay));
  if (!target.is_actor()) runtime_error(loc, "AFTER ... SEND ... TO needs an actor, not " + describe(target));
  f.cx.fx.delayed.push_back({delay.small_value(), std::move(target), std::move(msg)});
  return Value();
}

Value BecomeStmt::exec(Frame& f) const {
  Value beh = beh_->eval(f);
  if (!f.cx.self) runtime_error(loc, "BECOME can only be used inside an actor's behavior, not at top level");
  if (!beh.is_function()) runtime_error(loc, "BECOME needs a function as the behavior, not " + describe(beh));
  if (!f.cx.fx.become.empty()) runtime_error(loc, "a second BECOME in one message-event");
  f.cx.fx.become = std::move(beh);
  return Value();
}

Value ThrowStmt::exec(Frame& f) const {
  Value v = value_->eval(f);
  std::string text = "THROW " + describe(v);
  throw rt::EventError{loc, std::move(text), std::move(v)};
}

Value BindStmt::exec(Frame& f) const {
  if (!eq_->holds(f)) runtime_error(loc, "LET mismatch: the value does not match the pattern");
  return Value();
}

Value CreateStmt::exec(Frame& f) const {
  Value beh = beh_->eval(f);
  if (!beh.is_function()) runtime_error(loc, "CREATE ... WITH needs a function as the behavior, not " + describe(beh));
  f.slots[slot_].as<rt::Actor>()->behavior = std::move(beh);
  return Value();
}

Value BlockBody::run(Frame& f) const {
  for (uint32_t slot : creates) f.slots[slot] = f.cx.rt.new_actor(Value());
  const size_t n = steps.size();
  for (size_t i = 0; i + 1 < n; ++i) rt::run_blocks(steps[i]->exec(f), f.cx);
  return n ? steps[n - 1]->exec(f) : Value();
}

Value BlockNode::eval(Frame& f) const {
  Value closure = f.closure ? Value::share(const_cast<rt::Closure*>(f.closure)) : Value();
  rt::BlockValue* b = rt::BlockValue::make(&code_, std::move(closure), uint32_t(saved_slots.size()));
  Value result = Value::adopt(b);
  for (size_t i = 0; i < saved_slots.size(); ++i) b->saved()[i] = f.slots[saved_slots[i]];
  return result;
}

Value BlockCodeImpl::run(const rt::BlockValue& self, rt::Context& cx) const {
  rt::check_stack(loc);
  const rt::Closure* closure = self.closure.empty() ? nullptr : self.closure.as<rt::Closure>();
  HUMUS_FRAME(f, layout_.slots, closure, cx);
  for (size_t i = 0; i < node_.saved_slots.size(); ++i) f.slots[node_.saved_slots[i]] = self.saved()[i];
  return node_.body.run(f);
}

// ------------------------------------------------------------ functions

namespace {
// Binds a call's argument in a fresh frame: one value, or a tuple's elements.
bool bind_arguments(const LambdaCode& code, Frame& f, const Value* arg, const Value* args, uint32_t n) {
  if (n == 0) return code.param->match(*arg, f);
  for (uint32_t i = 0; i < n; ++i)
    if (!code.spread[i]->match(args[i], f)) return false;
  return true;
}
}  // namespace

Value LambdaCode::apply(const rt::Closure& self, const Value& arg, rt::Context& cx) const {
  return run(self, &arg, nullptr, 0, cx);
}

Value LambdaCode::apply_spread(const rt::Closure& self, Value* args, uint32_t n, rt::Context& cx) const {
  return run(self, nullptr, args, n, cx);
}

// Calls in tail position loop here instead of recursing: a tail-recursive
// function runs in constant C++ stack. The frame is reused while it is big
// enough and grown (on the stack) when a callee needs more slots.
Value LambdaCode::run(const rt::Closure& self, const Value* arg, const Value* args, uint32_t n,
                      rt::Context& cx) const {
  rt::check_stack(loc);
  uint32_t capacity = layout.slots ? layout.slots : 1;
  Value* slots = static_cast<Value*>(alloca(sizeof(Value) * capacity));
  std::uninitialized_value_construct_n(slots, capacity);
  struct Release {
    Value*& slots;
    uint32_t& n;
    ~Release() { std::destroy_n(slots, n); }
  } release{slots, capacity};

  const rt::Closure* closure = &self;
  const LambdaCode* code = this;
  TailCall tc;
  // Keep the callee and its arguments alive across iterations.
  Value held_fn, held_arg, held_args[TailCall::kMaxSpread];
  for (;;) {
    if (code->layout.slots > capacity) {
      std::destroy_n(slots, capacity);
      capacity = code->layout.slots;
      slots = static_cast<Value*>(alloca(sizeof(Value) * capacity));
      std::uninitialized_value_construct_n(slots, capacity);
    }
    Frame f{slots, closure, cx};
    if (!bind_arguments(*code, f, arg, args, n)) return Value::undefined();
    if (!code->body->eval_tail(f, tc)) return std::move(tc.value);
    for (uint32_t i = 0; i < capacity; ++i) slots[i] = Value();
    held_fn = std::move(tc.fn);
    n = tc.nargs;
    if (n) {
      for (uint32_t i = 0; i < n; ++i) held_args[i] = std::move(tc.args[i]);
      args = held_args;
      tc.nargs = 0;
    } else {
      held_arg = std::move(tc.arg);
      arg = &held_arg;
    }
    closure = held_fn.as<rt::Closure>();
    code = static_cast<const LambdaCode*>(closure->code);
  }
}

bool LambdaCode::run_behavior(const rt::Closure& self, const Value& msg, rt::Context& cx) const {
  rt::check_stack(loc);
  Value rest;
  {
    HUMUS_FRAME(f, layout.slots, &self, cx);
    if (!param->match(msg, f)) return false;
    std::optional<Value> r = body->exec_behavior(f);
    if (!r) return false;
    rest = std::move(*r);
  }
  rt::run_blocks(std::move(rest), cx);
  return true;
}

}  // namespace humus::interp
