// Out-of-line parts of the compiled nodes: calls, closures, effects and the
// error paths (kept out of the headers so the fast paths stay small).
#include <algorithm>
#include <string>

#include "interpreter/engine/stmt_nodes.hpp"
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

Tail statement_value(Value v, TailCall& tc, const rt::SourceLoc& loc) {
  if (v.is_block()) {
    tc.value = std::move(v);
    return Tail::Block;
  }
  if (!v.is_undefined()) runtime_error(loc, "a statement must give a block or ?, not " + describe(v));
  return Tail::None;
}

Tail Node::exec(Frame& f, TailCall& tc) const { return statement_value(eval(f), tc, tc.site ? *tc.site : loc); }

Tail Node::exec_behavior(Frame& f, TailCall& tc) const {
  Value v = eval(f);
  if (v.is_undefined()) return Tail::Unhandled;
  if (!v.is_block()) runtime_error(loc, "a behavior must give a block or ?, not " + describe(v));
  tc.value = std::move(v);
  return Tail::Block;
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
    // Humus functions (the tail-callable code) without the virtual call.
    if (c->code->tail_callable) [[likely]]
      return static_cast<const LambdaCode*>(c->code)->apply(*c, arg, cx);
    return c->code->apply(*c, arg, cx);
  }
  if (fn.is(rt::ObjKind::Native)) return fn.as<rt::Native>()->fn(arg);
  runtime_error(loc, "cannot apply " + describe(fn) + ": it is not a function");
}

Value CallNode::eval(Frame& f) const {
  Value fn = value_of(*fn_, f);
  Value arg = arg_ ? value_of(*arg_, f) : Value::nil();
  return apply_function(fn, arg, f.cx, loc);
}

namespace {
bool is_tail_callable(const Value& fn) {
  return fn.is(rt::ObjKind::Closure) && fn.as<rt::Closure>()->code->tail_callable;
}
}  // namespace

bool CallNode::eval_tail(Frame& f, TailCall& tc) const {
  Value fn = value_of(*fn_, f);
  Value arg = arg_ ? value_of(*arg_, f) : Value::nil();
  if (is_tail_callable(fn)) {
    tc.fn = std::move(fn);
    tc.arg = std::move(arg);
    return true;
  }
  tc.value = apply_function(fn, arg, f.cx, loc);
  return false;
}

// In statement position a call to a Humus function is left to run_tail,
// which runs the callee's body as a statement: a block it gives runs in
// place instead of becoming a block value.
namespace {
// A call node in statement position: its eval_tail, as a statement's tail.
template <class CallT>
Tail exec_call(const CallT& call, Frame& f, TailCall& tc) {
  if (!call.CallT::eval_tail(f, tc)) return statement_value(std::move(tc.value), tc, tc.site ? *tc.site : call.loc);
  if (!tc.site) tc.site = &call.loc;  // a call in a callee's tail keeps the statement's site
  return Tail::Call;
}
}  // namespace

Tail CallNode::exec(Frame& f, TailCall& tc) const { return exec_call(*this, f, tc); }

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

// fn(two[0], two[1]): a built-in's two-argument entry, a Humus function's
// spread parameters, or else the pair.
Value apply2(const Value& fn, Value* two, rt::Context& cx, const rt::SourceLoc& loc) {
  if (fn.is(rt::ObjKind::Native)) {
    if (const auto* nat = fn.as<rt::Native>(); nat->fn2) return nat->fn2(two[0], two[1]);
  } else if (const LambdaCode* code = spread_target(fn, 2)) {
    return code->apply_spread(*fn.as<rt::Closure>(), two, 2, cx);
  }
  return apply_function(fn, rt::make_pair(std::move(two[0]), std::move(two[1])), cx, loc);
}
}  // namespace

Value CallNNode::eval(Frame& f) const {
  Value fn = value_of(*fn_, f);
  const auto n = uint32_t(args_.size());
  if (n == 2) {  // the common case (add(n, 1), f(a, b)) without the scratch array
    Value two[2] = {value_of(*args_[0], f), value_of(*args_[1], f)};
    return apply2(fn, two, f.cx, loc);
  }
  Value vals[TailCall::kMaxSpread];
  for (uint32_t i = 0; i < n; ++i) vals[i] = value_of(*args_[i], f);
  return apply_values(fn, vals, n, f.cx);
}

Value CallNNode::apply_values(const Value& fn, Value* vals, uint32_t n, rt::Context& cx) const {
  if (fn.is(rt::ObjKind::Native)) {
    const auto* nat = fn.as<rt::Native>();
    if (n == 2 && nat->fn2) return nat->fn2(vals[0], vals[1]);
  } else if (const LambdaCode* code = spread_target(fn, n)) {
    return code->apply_spread(*fn.as<rt::Closure>(), vals, n, cx);
  }
  return apply_function(fn, tuple_of(vals, n), cx, loc);
}

bool CallNNode::eval_tail(Frame& f, TailCall& tc) const {
  Value fn = value_of(*fn_, f);
  if (!is_tail_callable(fn)) [[unlikely]] {
    tc.value = call_now(f, fn);
    return false;
  }
  const auto n = uint32_t(args_.size());
  for (uint32_t i = 0; i < n; ++i) tc.args[i] = value_of(*args_[i], f);
  if (static_cast<const LambdaCode*>(fn.as<rt::Closure>()->code)->spread.size() == n) [[likely]] {
    tc.nargs = n;
  } else {
    tc.arg = tuple_of(tc.args, n);
    tc.nargs = 0;
  }
  tc.fn = std::move(fn);
  return true;
}

// A built-in (or a non-function) in tail position: called at once.
Value CallNNode::call_now(Frame& f, const Value& fn) const {
  const auto n = uint32_t(args_.size());
  Value vals[TailCall::kMaxSpread];
  for (uint32_t i = 0; i < n; ++i) vals[i] = value_of(*args_[i], f);
  return apply_values(fn, vals, n, f.cx);
}

Builtin2Node::Builtin2Node(rt::SourceLoc l, std::unique_ptr<GlobalNode> fn, const rt::Native* native,
                           std::unique_ptr<Node> a, std::unique_ptr<Node> b)
    : Node(l), fn_(std::move(fn)), native_(native), a_(std::move(a)), b_(std::move(b)) {
  static const std::pair<std::string_view, Op> kOps[] = {{"add", Op::Add},
                                                         {"sub", Op::Sub},
                                                         {"less", Op::Less},
                                                         {"less_equal", Op::LessEqual},
                                                         {"greater", Op::Greater},
                                                         {"greater_equal", Op::GreaterEqual},
                                                         {"eq", Op::Eq}};
  for (auto [name, op] : kOps)
    if (name == native->name) op_ = op;
}

Value Builtin2Node::call_rebound(Frame& f) const {
  Value fn = Value::from_immortal_bits(fn_->cell()->load(std::memory_order_acquire));
  if (fn.empty()) fn_->undefined();
  Value two[2] = {value_of(*a_, f), value_of(*b_, f)};
  return apply2(fn, two, f.cx, loc);
}

namespace {
// Builtin2Node with its operand readers fixed at compile time (operands.hpp).
template <class A, class B>
class Builtin2 final : public Builtin2Node {
 public:
  using Builtin2Node::Builtin2Node;
  Value eval(Frame& f) const override {
    if (!still_bound()) [[unlikely]]
      return call_rebound(f);
    Value ta, tb;
    const Value& a = A::read(*a_, f, ta);
    const Value& b = B::read(*b_, f, tb);
    return compute(a, b);
  }
};

template <class A>
std::unique_ptr<Node> builtin2_b(rt::SourceLoc l, std::unique_ptr<GlobalNode> fn, const rt::Native* native,
                                 std::unique_ptr<Node> a, std::unique_ptr<Node> b) {
  switch (b->access) {
    case Node::Access::Slot:
      return std::make_unique<Builtin2<A, SlotOperand>>(l, std::move(fn), native, std::move(a), std::move(b));
    case Node::Access::Capture:
      return std::make_unique<Builtin2<A, CaptureOperand>>(l, std::move(fn), native, std::move(a), std::move(b));
    case Node::Access::Const:
      return std::make_unique<Builtin2<A, ConstOperand>>(l, std::move(fn), native, std::move(a), std::move(b));
    case Node::Access::Global:
      return std::make_unique<Builtin2<A, GlobalOperand>>(l, std::move(fn), native, std::move(a), std::move(b));
    case Node::Access::Eval:
      break;
  }
  return std::make_unique<Builtin2<A, EvalOperand>>(l, std::move(fn), native, std::move(a), std::move(b));
}
}  // namespace

std::unique_ptr<Node> make_builtin2(rt::SourceLoc l, std::unique_ptr<GlobalNode> fn, const rt::Native* native,
                                    std::unique_ptr<Node> a, std::unique_ptr<Node> b) {
  switch (a->access) {
    case Node::Access::Slot:
      return builtin2_b<SlotOperand>(l, std::move(fn), native, std::move(a), std::move(b));
    case Node::Access::Capture:
      return builtin2_b<CaptureOperand>(l, std::move(fn), native, std::move(a), std::move(b));
    case Node::Access::Const:
      return builtin2_b<ConstOperand>(l, std::move(fn), native, std::move(a), std::move(b));
    case Node::Access::Global:
      return builtin2_b<GlobalOperand>(l, std::move(fn), native, std::move(a), std::move(b));
    case Node::Access::Eval:
      break;
  }
  return builtin2_b<EvalOperand>(l, std::move(fn), native, std::move(a), std::move(b));
}

Tail CallNNode::exec(Frame& f, TailCall& tc) const { return exec_call(*this, f, tc); }

Value TupleNode::eval(Frame& f) const {
  if (elems_.size() == 2) {  // the common case, without the scratch array
    Value a = elems_[0]->eval(f);
    Value b = elems_[1]->eval(f);
    return rt::make_pair(std::move(a), std::move(b));
  }
  // Evaluate left to right, then pair up from the back.
  // Literals with many elements (a generated table) go to the heap, not the stack.
  const size_t n = elems_.size();
  if (n < 3) __builtin_unreachable();  // a tuple has two or more elements, and two are done above
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

Tail SendStmt::exec(Frame& f, TailCall&) const {
  Value msg = value_of(*msg_, f);
  Value tmp;
  const Value& target = operand(*target_, f, tmp);  // borrowed: the run holds the actor
  if (!target.is_actor()) runtime_error(loc, "SEND ... TO needs an actor, not " + describe(target));
  f.cx.fx.send(target.as<rt::Actor>(), std::move(msg));
  return Tail::None;
}

Tail AfterStmt::exec(Frame& f, TailCall&) const {
  Value delay = delay_->eval(f);
  Value msg = msg_->eval(f);
  Value target = target_->eval(f);
  if (!delay.is_small() || delay.small_value() < 0)
    runtime_error(loc, "AFTER needs a delay in milliseconds (an integer >= 0), not " + describe(delay));
  if (!target.is_actor()) runtime_error(loc, "AFTER ... SEND ... TO needs an actor, not " + describe(target));
  f.cx.fx.delayed.push_back({delay.small_value(), std::move(target), std::move(msg)});
  return Tail::None;
}

BecomeStmt::BecomeStmt(rt::SourceLoc l, std::unique_ptr<Node> beh) : StmtNode(l), beh_(std::move(beh)) {
  call1_ = dynamic_cast<const CallNode*>(beh_.get());
  calln_ = dynamic_cast<const CallNNode*>(beh_.get());
}

void BecomeStmt::check(Frame& f, const Value* beh) const {
  if (!f.cx.self) runtime_error(loc, "BECOME can only be used inside an actor's behavior, not at top level");
  if (beh && !beh->is_function()) runtime_error(loc, "BECOME needs a function as the behavior, not " + describe(*beh));
  if (f.cx.fx.has_become()) runtime_error(loc, "a second BECOME in one message-event");
}

// The call in `BECOME f(args)`: f and the arguments are evaluated as the
// call would; for a behavior factory, the closure's captures are left
// pending in the effects (true), else the call is made into `beh` (false).
bool BecomeStmt::pend_factory(Frame& f, const Value& fn, const Value* arg, const Value* args, uint32_t n) const {
  if (!is_tail_callable(fn)) return false;
  const auto* closure = fn.as<rt::Closure>();
  const auto* code = static_cast<const LambdaCode*>(closure->code);
  const LambdaCode* made = code->factory_for(n);
  if (!made || code->factory_captures() > rt::Effects::kPendingMax) return false;
  check(f);
  rt::Effects& fx = f.cx.fx;
  code->capture_arguments(*closure, arg, args, fx.pending);
  fx.pending_count = code->factory_captures();
  fx.pending_code = made;
  return true;
}

bool BecomeStmt::eval_call1(Frame& f, Value& beh) const {
  Value fn = value_of(call1_->fn(), f);
  Value arg = call1_->arg() ? value_of(*call1_->arg(), f) : Value::nil();
  if (pend_factory(f, fn, &arg, nullptr, 0)) return true;
  beh = apply_function(fn, arg, f.cx, call1_->loc);
  return false;
}

bool BecomeStmt::eval_calln(Frame& f, Value& beh) const {
  Value fn = value_of(calln_->fn(), f);
  const auto n = uint32_t(calln_->args().size());
  Value args[TailCall::kMaxSpread];
  for (uint32_t i = 0; i < n; ++i) args[i] = value_of(*calln_->args()[i], f);
  if (pend_factory(f, fn, nullptr, args, n)) return true;
  beh = calln_->apply_values(fn, args, n, f.cx);
  return false;
}

Tail BecomeStmt::exec(Frame& f, TailCall&) const {
  Value beh;
  if (call1_ ? eval_call1(f, beh) : calln_ ? eval_calln(f, beh) : (beh = beh_->eval(f), false)) return Tail::None;
  check(f, &beh);
  f.cx.fx.become = std::move(beh);
  return Tail::None;
}

Tail ThrowStmt::exec(Frame& f, TailCall&) const {
  Value v = value_->eval(f);
  std::string text = "THROW " + describe(v);
  throw rt::EventError{loc, std::move(text), std::move(v)};
}

Tail BindStmt::exec(Frame& f, TailCall&) const {
  if (!eq_->holds(f)) runtime_error(loc, "LET mismatch: the value does not match the pattern");
  return Tail::None;
}

Tail CreateStmt::exec(Frame& f, TailCall&) const {
  Value beh = beh_->eval(f);
  if (!beh.is_function()) runtime_error(loc, "CREATE ... WITH needs a function as the behavior, not " + describe(beh));
  f.slots[slot_].as<rt::Actor>()->behavior = std::move(beh);
  return Tail::None;
}

void BlockBody::make_actors(Frame& f) const {
  for (uint32_t slot : creates) f.slots[slot] = f.cx.rt.new_actor(Value());
}

Tail BlockBody::run_all(Frame& f, TailCall& tc) const {
  if (!creates.empty()) make_actors(f);
  const size_t n = steps.size();
  if (n == 0) return Tail::None;
  // tc is free until the last step: earlier steps borrow it for their tails.
  for (size_t i = 0; i + 1 < n; ++i)
    if (Tail t = steps[i]->exec(f, tc); t != Tail::None) run_tail(t, tc, f.cx);
  return steps[n - 1]->exec(f, tc);
}

Value BlockNode::eval(Frame& f) const {
  Value closure = f.closure ? Value::share(const_cast<rt::Closure*>(f.closure)) : Value();
  rt::BlockValue* b = rt::BlockValue::make(&code_, std::move(closure), uint32_t(saved_slots.size()));
  Value result = Value::adopt(b);
  for (size_t i = 0; i < saved_slots.size(); ++i) b->saved()[i] = f.slots[saved_slots[i]];
  return result;
}

// ------------------------------------------------------------ functions

void LambdaCode::plan_binding() {
  if (const auto* b = dynamic_cast<const BindPat*>(param.get())) arg_slot_ = int32_t(b->slot());
  spread_slots_.clear();
  for (const PatNode* p : spread) {
    if (const auto* b = dynamic_cast<const BindPat*>(p))
      spread_slots_.push_back(int32_t(b->slot()));
    else if (dynamic_cast<const WildcardPat*>(p))
      spread_slots_.push_back(-1);
  }
  move_spread_ = !spread.empty() && spread_slots_.size() == spread.size();
}

void LambdaCode::plan_factory() {
  const auto* inner = dynamic_cast<const LambdaNode*>(body.get());
  if (!inner || !(arg_slot_ >= 0 || move_spread_)) return;
  std::vector<FactorySource> sources;
  for (const CaptureSource& src : inner->captures().sources) {
    switch (src.kind) {
      case CaptureSource::Kind::Slot: {
        // Only a parameter's slot: anything else would need the frame.
        if (arg_slot_ >= 0 && src.index == uint32_t(arg_slot_)) {
          sources.push_back({FactorySource::Kind::Arg, 0});
          continue;
        }
        auto it = std::find(spread_slots_.begin(), spread_slots_.end(), int32_t(src.index));
        if (!move_spread_ || it == spread_slots_.end()) return;
        sources.push_back({FactorySource::Kind::Arg, uint32_t(it - spread_slots_.begin())});
        continue;
      }
      case CaptureSource::Kind::Capture:
        sources.push_back({FactorySource::Kind::Capture, src.index});
        continue;
      case CaptureSource::Kind::SelfFn:
        sources.push_back({FactorySource::Kind::SelfFn, 0});
        continue;
      case CaptureSource::Kind::Sibling:
        return;
    }
  }
  factory_ = inner->code();
  factory_sources_ = std::move(sources);
}

Value LambdaCode::make_from_arguments(const rt::Closure& self, const Value* arg, const Value* args) const {
  rt::Closure* c = rt::Closure::make(factory_, uint32_t(factory_sources_.size()));
  Value result = Value::adopt(c);
  capture_arguments(self, arg, args, c->captures());
  return result;
}

void LambdaCode::capture_arguments(const rt::Closure& self, const Value* arg, const Value* args, Value* out) const {
  for (const FactorySource& src : factory_sources_) {
    switch (src.kind) {
      case FactorySource::Kind::Arg:
        *out++ = args ? args[src.index] : *arg;
        break;
      case FactorySource::Kind::Capture:
        *out++ = self.captures()[src.index];
        break;
      case FactorySource::Kind::SelfFn:
        *out++ = Value::share(const_cast<rt::Closure*>(&self));
        break;
    }
  }
}

bool LambdaCode::bind_spread_matching(Frame& f, Value* args, uint32_t n) const {
  bool ok = true;
  for (uint32_t i = 0; i < n && ok; ++i) ok = spread[i]->match(args[i], f);
  for (uint32_t i = 0; i < n; ++i) args[i] = Value();
  return ok;
}

Value LambdaCode::apply(const rt::Closure& self, const Value& arg, rt::Context& cx) const {
  return run(self, &arg, nullptr, 0, cx);
}

Value LambdaCode::apply_spread(const rt::Closure& self, Value* args, uint32_t n, rt::Context& cx) const {
  return run(self, nullptr, args, n, cx);
}

Value LambdaCode::run(const rt::Closure& self, const Value* arg, Value* args, uint32_t n, rt::Context& cx) const {
  if (!direct) return run_loop(self, n ? Value() : *arg, args, n, cx);
  if (factory_ && (n ? move_spread_ : arg_slot_ >= 0)) return make_from_arguments(self, arg, n ? args : nullptr);
  // A body without calls in tail position (a behavior factory such as
  // `DEF counter(sum) AS \msg.[...]`): one frame, no tail-call bookkeeping.
  rt::check_stack(loc);
  HUMUS_FRAME(f, layout.slots, &self, cx);
  if (!(n ? bind_spread(f, args, n) : bind(f, *arg))) return Value::undefined();
  return body->eval(f);
}

// Calls in tail position loop here instead of recursing: a tail-recursive
// function runs in constant C++ stack, in one reused frame. The arguments
// are taken over: binding moves them into the frame.
Value LambdaCode::run_loop(const rt::Closure& self, Value arg, Value* args, uint32_t n, rt::Context& cx) const {
  rt::check_stack(loc);
  ReusedSlots slots;
  const rt::Closure* closure = &self;
  const LambdaCode* code = this;
  TailCall tc;
  Value held_fn;  // keeps the running callee alive
  for (;;) {
    HUMUS_FRAME_FIT(slots, code->layout.slots);
    Frame f{slots.get(), closure, cx};
    if (!(n ? code->bind_spread(f, args, n) : code->bind(f, std::move(arg)))) return Value::undefined();
    if (!code->body->eval_tail(f, tc)) return std::move(tc.value);
    slots.clear();
    held_fn = std::move(tc.fn);
    n = tc.nargs;
    tc.nargs = 0;
    args = tc.args;
    if (!n) arg = std::move(tc.arg);
    closure = held_fn.as<rt::Closure>();
    code = static_cast<const LambdaCode*>(closure->code);
  }
}

bool LambdaCode::run_behavior(const rt::Closure& self, const Value& msg, rt::Context& cx) const {
  rt::check_stack(loc);
  TailCall tc;
  Tail t;
  {
    HUMUS_FRAME(f, layout.slots, &self, cx);
    if (!bind(f, msg)) return false;
    t = body->exec_behavior(f, tc);
    if (t == Tail::Unhandled) return false;
  }
  if (t != Tail::None) run_tail(t, tc, cx);
  return true;
}

// ------------------------------------------------------- statement tails

void run_tail(Tail t, TailCall& tc, rt::Context& cx) {
  if (t == Tail::None) return;
  rt::check_stack(tc.site ? *tc.site : rt::SourceLoc{});
  ReusedSlots slots;
  Value held_fn;  // what the current frame runs, kept alive while it runs
  while (t != Tail::None) {
    if (t == Tail::Block) {
      held_fn = std::move(tc.value);
      const auto& block = *held_fn.as<rt::BlockValue>();
      // Every block value is made by BlockNode::eval, so its code is ours.
      const auto& code = static_cast<const BlockCodeImpl&>(*block.code);
      HUMUS_FRAME_FIT(slots, code.layout.slots);
      const rt::Closure* closure = block.closure.empty() ? nullptr : block.closure.as<rt::Closure>();
      Frame f{slots.get(), closure, cx};
      const auto& saved = code.node.saved_slots;
      for (size_t i = 0; i < saved.size(); ++i) f.slots[saved[i]] = block.saved()[i];
      t = code.node.body.run(f, tc);
    } else {  // Tail::Call: run the callee's body as a statement
      held_fn = std::move(tc.fn);
      const uint32_t n = tc.nargs;
      tc.nargs = 0;
      const auto* closure = held_fn.as<rt::Closure>();
      const auto& code = static_cast<const LambdaCode&>(*closure->code);
      HUMUS_FRAME_FIT(slots, code.layout.slots);
      Frame f{slots.get(), closure, cx};
      // The arguments move into the frame; tc is then free for the body.
      const bool bound = n ? code.bind_spread(f, tc.args, n) : code.bind(f, std::move(tc.arg));
      t = bound ? code.body->exec(f, tc) : Tail::None;
    }
    slots.clear();
  }
}

void run_statement_value(Value v, const rt::SourceLoc& loc, rt::Context& cx) {
  TailCall tc;
  Tail t = statement_value(std::move(v), tc, loc);
  run_tail(t, tc, cx);
}

}  // namespace humus::interp
