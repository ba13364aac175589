#include "interpreter/compile/compiler.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "interpreter/compile/dataflow.hpp"
#include "runtime/integer.hpp"
#include "runtime/symbols.hpp"

namespace humus::interp {

namespace {

using NodePtr = std::unique_ptr<Node>;
using PatPtr = std::unique_ptr<PatNode>;

// ------------------------------------------------------- compile-time scopes

// Names bound in one block, LET ... IN, IF branch, CASE alternative or
// parameter list, each mapped to its frame slot.
struct BlockScope {
  BlockScope* parent = nullptr;
  std::unordered_map<std::string, uint32_t> slots;
};

// Names a function refers to without capturing them: itself, and the other
// members of its recursive group.
struct Special {
  CaptureSource::Kind kind;  // SelfFn or Sibling
  const LambdaCode* code = nullptr;
};

// Slots read by a block literal that were bound outside it: a block value
// saves exactly these.
struct SlotRecorder {
  uint32_t base;
  std::set<uint32_t> reads;
};

// One function body being compiled (or one top-level statement).
struct FnScope {
  FnScope* parent = nullptr;
  BlockScope* block = nullptr;
  FrameLayout* layout = nullptr;
  uint32_t top = 0;  // next free slot
  std::shared_ptr<CaptureList> captures;
  std::shared_ptr<std::unordered_map<std::string, uint32_t>> capture_index;
  std::unordered_map<std::string, Special> specials;
  std::vector<SlotRecorder*> recorders;
  bool top_level = false;

  uint32_t new_slot() {
    uint32_t s = top++;
    layout->slots = std::max(layout->slots, top);
    return s;
  }
};

// Opens a nested scope; slots it allocates are reused after it closes.
class ScopeGuard {
 public:
  explicit ScopeGuard(FnScope& fs) : fs_(fs), saved_top_(fs.top) {
    scope.parent = fs.block;
    fs.block = &scope;
  }
  ~ScopeGuard() {
    fs_.block = scope.parent;
    fs_.top = saved_top_;
  }
  ScopeGuard(const ScopeGuard&) = delete;
  ScopeGuard& operator=(const ScopeGuard&) = delete;
  BlockScope scope;

 private:
  FnScope& fs_;
  uint32_t saved_top_;
};

struct Access {
  enum class Kind { Slot, Capture, SelfFn, Sibling, Global } kind;
  uint32_t index = 0;
  const LambdaCode* code = nullptr;
};

// How pattern binders get their slots: fresh ones, or (in a block, where every
// name is known before any statement compiles) the block's pre-assigned ones.
using SlotFor = std::function<uint32_t(const std::string&)>;

class Compiler {
 public:
  Compiler(const ast::Program& program, rt::Runtime& rt, CodeArena& arena)
      : source_(program.source), rt_(rt), arena_(arena) {}

  std::unique_ptr<TopStmt> top(const ast::Stmt& s);
  std::vector<CompileWarning> warnings;

 private:
  // ---- locations and errors
  rt::SourceLoc sloc(ast::Loc l) const { return rt::SourceLoc{&source_->name, l.line, l.column}; }
  [[noreturn]] static void error(ast::Loc l, std::string message) { throw CompileError{l, std::move(message)}; }

  // ---- name resolution
  Access resolve(FnScope& fs, const std::string& name);
  NodePtr variable(FnScope& fs, const std::string& name, ast::Loc loc);
  static void record_read(FnScope& fs, uint32_t slot) {
    for (SlotRecorder* r : fs.recorders)
      if (slot < r->base) r->reads.insert(slot);
  }

  // ---- expressions
  NodePtr expr(FnScope& fs, const ast::Expr& e);
  NodePtr call(FnScope& fs, const ast::Expr& e);
  std::unique_ptr<LambdaNode> lambda(FnScope& fs, const ast::Pattern& param, const ast::Expr& body, ast::Loc loc,
                                     std::unordered_map<std::string, Special> specials,
                                     std::shared_ptr<CaptureList> captures = nullptr,
                                     std::shared_ptr<std::unordered_map<std::string, uint32_t>> index = nullptr,
                                     LambdaCode* code = nullptr);
  NodePtr block_literal(FnScope& fs, const ast::Expr& e);
  Value constant(const ast::Constant& c);
  static Value unpinned_constant(const ast::Constant& c);

  // ---- patterns and equations
  PatPtr pattern(FnScope& fs, const ast::Pattern& p, const SlotFor& slot_for);
  NodePtr pattern_value(FnScope& fs, const ast::Pattern& p);
  static bool binds(const ast::Pattern& p);
  static bool gives_value(const ast::Pattern& p);
  std::unique_ptr<Equation> equation(FnScope& fs, const ast::Equation& eq, const SlotFor& slot_for);
  // Binds the names of an equation in the current scope with fresh slots.
  std::unique_ptr<Equation> scoped_equation(FnScope& fs, const ast::Equation& eq);

  // ---- statements
  void block_body(FnScope& fs, const std::vector<ast::StmtPtr>& stmts, BlockBody& body);
  std::unique_ptr<StmtNode> effect(FnScope& fs, const ast::Stmt& s);
  void check_not_top(const FnScope& fs, ast::Loc loc, const char* what) const {
    if (fs.top_level) error(loc, std::string(what) + " can only be used inside an actor's behavior, not at top level");
  }

  ast::SourcePtr source_;
  // True while compiling a top-level statement whose blocks are values to be
  // run later (DEF b AS [ ... ], SEND [ ... ] TO a), so SELF and BECOME in
  // them are checked when they run, not rejected as "at top level".
  bool blocks_defer_ = false;
  rt::Runtime& rt_;
  CodeArena& arena_;
};

// ------------------------------------------------------------- resolution

Access Compiler::resolve(FnScope& fs, const std::string& name) {
  for (BlockScope* b = fs.block; b; b = b->parent) {
    if (auto it = b->slots.find(name); it != b->slots.end()) {
      record_read(fs, it->second);
      return {Access::Kind::Slot, it->second};
    }
  }
  if (auto it = fs.specials.find(name); it != fs.specials.end()) {
    if (it->second.kind == CaptureSource::Kind::SelfFn) return {Access::Kind::SelfFn};
    return {Access::Kind::Sibling, 0, it->second.code};
  }
  if (!fs.parent) return {Access::Kind::Global};
  if (auto it = fs.capture_index->find(name); it != fs.capture_index->end()) return {Access::Kind::Capture, it->second};
  Access outer = resolve(*fs.parent, name);
  CaptureSource src{CaptureSource::Kind::Slot};
  switch (outer.kind) {
    case Access::Kind::Global:
      return outer;
    case Access::Kind::Slot:
      src = {CaptureSource::Kind::Slot, outer.index};
      break;
    case Access::Kind::Capture:
      src = {CaptureSource::Kind::Capture, outer.index};
      break;
    case Access::Kind::SelfFn:
      src = {CaptureSource::Kind::SelfFn};
      break;
    case Access::Kind::Sibling:
      src = {CaptureSource::Kind::Sibling, 0, outer.code};
      break;
  }
  auto index = uint32_t(fs.captures->sources.size());
  fs.captures->sources.push_back(src);
  fs.capture_index->emplace(name, index);
  return {Access::Kind::Capture, index};
}

NodePtr Compiler::variable(FnScope& fs, const std::string& name, ast::Loc loc) {
  Access a = resolve(fs, name);
  switch (a.kind) {
    case Access::Kind::Slot:
      return std::make_unique<LocalNode>(sloc(loc), a.index, name);
    case Access::Kind::Capture:
      return std::make_unique<CaptureNode>(sloc(loc), a.index);
    case Access::Kind::SelfFn:
      return std::make_unique<SelfFnNode>(sloc(loc));
    case Access::Kind::Sibling:
      return std::make_unique<SiblingNode>(sloc(loc), a.code);
    case Access::Kind::Global:
      break;
  }
  uint32_t slot = rt_.globals().slot(name);
  return std::make_unique<GlobalNode>(sloc(loc), rt_.globals().cell_address(slot), name);
}

// ------------------------------------------------------------ expressions

// Boxed constants (big integers, strings) are pinned: shared by every event
// without reference counting, freed with the runtime.
Value Compiler::constant(const ast::Constant& c) {
  Value v = unpinned_constant(c);
  rt_.globals().pin(v);
  return v;
}

Value Compiler::unpinned_constant(const ast::Constant& c) {
  switch (c.kind) {
    case ast::Constant::Kind::Integer:
      return rt::parse_integer(c.digits, c.radix, c.negative);
    case ast::Constant::Kind::String: {
      Value list = Value::nil();
      for (size_t i = c.codes.size(); i-- > 0;) list = rt::make_pair(rt::make_integer(c.codes[i]), std::move(list));
      return list;
    }
    case ast::Constant::Kind::Symbol:
      return Value::symbol(rt::intern_symbol(c.name));
    case ast::Constant::Kind::True:
      return Value::truth();
    case ast::Constant::Kind::False:
      return Value::falsity();
    case ast::Constant::Kind::Nil:
      return Value::nil();
    case ast::Constant::Kind::Undefined:
      return Value::undefined();
  }
  return Value::undefined();
}

NodePtr Compiler::expr(FnScope& fs, const ast::Expr& e) {
  const rt::SourceLoc l = sloc(e.loc);
  switch (e.kind) {
    case ast::ExprKind::Const:
      return std::make_unique<ConstNode>(l, constant(e.constant));
    case ast::ExprKind::Var:
      return variable(fs, e.name, e.loc);
    case ast::ExprKind::Self:
      check_not_top(fs, e.loc, "SELF");
      return std::make_unique<SelfActorNode>(l);
    case ast::ExprKind::Now:
      return std::make_unique<NowNode>(l);
    case ast::ExprKind::Lambda:
      // `\x.[ ... ], y` is one function returning a pair, by the rule that a
      // body extends as far as it can; it is almost always meant as (\x.[ ... ]), y.
      if (e.body->kind == ast::ExprKind::Tuple && e.body->elements.front()->kind == ast::ExprKind::Block)
        warnings.push_back({e.loc,
                            "this function's body is a pair that starts with a block; if the function "
                            "should end at that ']', put it in parentheses: (\\x.[ ... ]), ..."});
      return lambda(fs, *e.param, *e.body, e.loc, {});
    case ast::ExprKind::Block:
      return block_literal(fs, e);
    case ast::ExprKind::Call:
      return call(fs, e);
    case ast::ExprKind::Tuple: {
      std::vector<NodePtr> elems;
      elems.reserve(e.elements.size());
      for (const auto& x : e.elements) elems.push_back(expr(fs, *x));
      return std::make_unique<TupleNode>(l, std::move(elems));
    }
    case ast::ExprKind::New:
      return std::make_unique<NewNode>(l, expr(fs, *e.body));
    case ast::ExprKind::LetIn: {
      ScopeGuard scope(fs);
      auto eq = scoped_equation(fs, *e.equation);
      return std::make_unique<LetInNode>(l, std::move(eq), expr(fs, *e.body));
    }
    case ast::ExprKind::If: {
      std::vector<IfNode::Branch> branches;
      for (const auto& b : e.branches) {
        ScopeGuard scope(fs);
        auto eq = scoped_equation(fs, b.condition);
        branches.push_back({std::move(eq), expr(fs, *b.body)});
      }
      NodePtr otherwise = e.body ? expr(fs, *e.body) : nullptr;
      return std::make_unique<IfNode>(l, std::move(branches), std::move(otherwise));
    }
    case ast::ExprKind::Case: {
      NodePtr subject = expr(fs, *e.body);
      std::vector<CaseNode::Alt> alts;
      for (const auto& a : e.alternatives) {
        ScopeGuard scope(fs);
        std::unordered_map<std::string, uint32_t> fresh;
        PatPtr p = pattern(fs, *a.pattern, [&](const std::string& name) { return fresh[name] = fs.new_slot(); });
        for (auto& [name, slot] : fresh) scope.scope.slots[name] = slot;
        alts.push_back({std::move(p), expr(fs, *a.body)});
      }
      return std::make_unique<CaseNode>(l, std::move(subject), std::move(alts));
    }
  }
  error(e.loc, "internal error: unknown expression");
}

// f(a, b, ...) calls pass their arguments without building the tuple when
// the callee can take them that way (CallNNode).
NodePtr Compiler::call(FnScope& fs, const ast::Expr& e) {
  NodePtr fn = expr(fs, *e.callee);
  const rt::SourceLoc l = sloc(e.loc);
  if (e.argument && e.argument->kind == ast::ExprKind::Tuple && e.argument->elements.size() >= 2 &&
      e.argument->elements.size() <= TailCall::kMaxSpread) {
    std::vector<NodePtr> args;
    for (const auto& x : e.argument->elements) args.push_back(expr(fs, *x));
    if (args.size() == 2)
      if (const auto* g = dynamic_cast<const GlobalNode*>(fn.get())) {
        rt::Value now = rt::Value::from_immortal_bits(g->cell()->load(std::memory_order_acquire));
        if (now.is(rt::ObjKind::Native) && now.as<rt::Native>()->fn2) {
          std::unique_ptr<GlobalNode> global(static_cast<GlobalNode*>(fn.release()));
          return make_builtin2(l, std::move(global), now.as<rt::Native>(), std::move(args[0]), std::move(args[1]));
        }
      }
    return std::make_unique<CallNNode>(l, std::move(fn), std::move(args));
  }
  NodePtr arg = e.argument ? expr(fs, *e.argument) : nullptr;
  return std::make_unique<CallNode>(l, std::move(fn), std::move(arg));
}

std::unique_ptr<LambdaNode> Compiler::lambda(FnScope& fs, const ast::Pattern& param, const ast::Expr& body,
                                             ast::Loc loc, std::unordered_map<std::string, Special> specials,
                                             std::shared_ptr<CaptureList> captures,
                                             std::shared_ptr<std::unordered_map<std::string, uint32_t>> index,
                                             LambdaCode* code) {
  if (!captures) captures = std::make_shared<CaptureList>();
  if (!index) index = std::make_shared<std::unordered_map<std::string, uint32_t>>();
  if (!code) code = arena_.make<LambdaCode>(sloc(loc), captures);

  FnScope inner;
  inner.parent = &fs;
  inner.layout = &code->layout;
  inner.captures = captures;
  inner.capture_index = index;
  inner.specials = std::move(specials);
  BlockScope params;
  inner.block = &params;
  std::unordered_map<std::string, uint32_t> fresh;
  code->param = pattern(inner, param, [&](const std::string& name) { return fresh[name] = inner.new_slot(); });
  if (const auto* tuple = dynamic_cast<const TuplePat*>(code->param.get()))
    for (const auto& p : tuple->elements()) code->spread.push_back(p.get());
  code->plan_binding();
  for (auto& [name, slot] : fresh) params.slots[name] = slot;
  code->body = expr(inner, body);
  code->direct = !code->body->may_tail_call();
  code->plan_factory();
  return std::make_unique<LambdaNode>(sloc(loc), code, captures);
}

NodePtr Compiler::block_literal(FnScope& fs, const ast::Expr& e) {
  auto node = std::make_unique<BlockNode>(sloc(e.loc), *fs.layout);
  SlotRecorder recorder{fs.top, {}};
  fs.recorders.push_back(&recorder);
  const bool was_top = fs.top_level;
  if (blocks_defer_) fs.top_level = false;
  {
    ScopeGuard scope(fs);
    block_body(fs, e.stmts, node->body);
  }
  fs.top_level = was_top;
  fs.recorders.pop_back();
  node->saved_slots.assign(recorder.reads.begin(), recorder.reads.end());
  return node;
}

// --------------------------------------------------- patterns and equations

PatPtr Compiler::pattern(FnScope& fs, const ast::Pattern& p, const SlotFor& slot_for) {
  // One identifier bound twice in one pattern is an error.
  std::unordered_set<std::string> seen;
  for (const auto& [name, loc] : pattern_binders(p))
    if (!seen.insert(name).second) error(loc, "'" + name + "' is bound twice in this pattern");

  // Iterative over tuple spines, recursive only into parenthesised sub-patterns
  // (whose depth the parser bounds).
  std::function<PatPtr(const ast::Pattern&)> build = [&](const ast::Pattern& q) -> PatPtr {
    const rt::SourceLoc l = sloc(q.loc);
    switch (q.kind) {
      case ast::PatternKind::Wildcard:
        return std::make_unique<WildcardPat>(l);
      case ast::PatternKind::Bind:
        return std::make_unique<BindPat>(l, slot_for(q.name));
      case ast::PatternKind::Const:
        return std::make_unique<ConstPat>(l, constant(q.constant));
      case ast::PatternKind::Value:
        return std::make_unique<ValuePat>(l, expr(fs, *q.value));
      case ast::PatternKind::Self:
        check_not_top(fs, q.loc, "SELF");
        return std::make_unique<SelfPat>(l);
      case ast::PatternKind::Tuple: {
        std::vector<PatPtr> elems;
        elems.reserve(q.elements.size());
        for (const auto& x : q.elements) elems.push_back(build(*x));
        return std::make_unique<TuplePat>(l, std::move(elems));
      }
    }
    error(q.loc, "internal error: unknown pattern");
  };
  return build(p);
}

bool Compiler::binds(const ast::Pattern& p) { return !pattern_binders(p).empty(); }

// Whether a pattern can give a value: constants, $terms, SELF and tuples of them.
bool Compiler::gives_value(const ast::Pattern& p) {
  switch (p.kind) {
    case ast::PatternKind::Const:
    case ast::PatternKind::Value:
    case ast::PatternKind::Self:
      return true;
    case ast::PatternKind::Tuple:
      return std::all_of(p.elements.begin(), p.elements.end(), [](const auto& e) { return gives_value(*e); });
    default:
      return false;
  }
}

NodePtr Compiler::pattern_value(FnScope& fs, const ast::Pattern& p) {
  const rt::SourceLoc l = sloc(p.loc);
  switch (p.kind) {
    case ast::PatternKind::Const:
      return std::make_unique<ConstNode>(l, constant(p.constant));
    case ast::PatternKind::Value:
      return expr(fs, *p.value);
    case ast::PatternKind::Self:
      check_not_top(fs, p.loc, "SELF");
      return std::make_unique<SelfActorNode>(l);
    case ast::PatternKind::Tuple: {
      std::vector<NodePtr> elems;
      for (const auto& x : p.elements) elems.push_back(pattern_value(fs, *x));
      return std::make_unique<TupleNode>(l, std::move(elems));
    }
    default:
      error(p.loc, "internal error: pattern gives no value");
  }
}

std::unique_ptr<Equation> Compiler::equation(FnScope& fs, const ast::Equation& eq, const SlotFor& slot_for) {
  switch (eq.kind) {
    case ast::Equation::Kind::FunctionDef: {
      uint32_t slot = slot_for(eq.name);
      std::unordered_map<std::string, Special> specials{{eq.name, {CaptureSource::Kind::SelfFn}}};
      return std::make_unique<FunctionEquation>(slot, lambda(fs, *eq.param, *eq.body, eq.loc, std::move(specials)));
    }
    case ast::Equation::Kind::PatternDef: {
      NodePtr value = expr(fs, *eq.body);
      return std::make_unique<MatchEquation>(std::move(value), pattern(fs, *eq.lhs, slot_for));
    }
    case ast::Equation::Kind::Match:
      break;
  }
  const bool lb = binds(*eq.lhs), rb = binds(*eq.rhs);
  if (lb && rb)
    error(eq.loc, "both sides of '=' bind names; one side must give the value (write $name to use a variable)");
  const ast::Pattern* value_side;
  const ast::Pattern* pattern_side;
  if (!rb && gives_value(*eq.rhs)) {
    value_side = eq.rhs.get();
    pattern_side = eq.lhs.get();
  } else if (!lb && gives_value(*eq.lhs)) {
    value_side = eq.lhs.get();
    pattern_side = eq.rhs.get();
  } else {
    error(eq.loc, "one side of '=' must give a value: constants and $terms, without '_'");
  }
  NodePtr value = pattern_value(fs, *value_side);
  return std::make_unique<MatchEquation>(std::move(value), pattern(fs, *pattern_side, slot_for));
}

std::unique_ptr<Equation> Compiler::scoped_equation(FnScope& fs, const ast::Equation& eq) {
  std::unordered_map<std::string, uint32_t> fresh;
  auto result = equation(fs, eq, [&](const std::string& name) { return fresh[name] = fs.new_slot(); });
  for (auto& [name, slot] : fresh) fs.block->slots[name] = slot;
  return result;
}

// ------------------------------------------------------------- statements

void Compiler::block_body(FnScope& fs, const std::vector<ast::StmtPtr>& stmts, BlockBody& body) {
  const BlockPlan plan = plan_block(stmts);

  // Every name of the block is visible to every statement (dataflow), so all
  // get their slots before any statement compiles.
  for (const auto& s : stmts)
    for (const auto& [name, loc] : statement_binders(*s)) fs.block->slots[name] = fs.new_slot();
  const SlotFor block_slot = [&](const std::string& name) { return fs.block->slots.at(name); };

  for (size_t i : plan.creates) body.creates.push_back(fs.block->slots.at(stmts[i]->name));

  for (const auto& group : plan.bindings) {
    const ast::Stmt& first = *stmts[group.front()];
    if (group.size() == 1) {
      if (first.kind == ast::StmtKind::Create) {
        body.steps.push_back(
            std::make_unique<CreateStmt>(sloc(first.loc), block_slot(first.name), expr(fs, *first.value)));
        continue;
      }
      FunctionBinding fb;
      if (as_function_binding(first, fb)) {
        std::unordered_map<std::string, Special> specials{{*fb.name, {CaptureSource::Kind::SelfFn}}};
        auto eq = std::make_unique<FunctionEquation>(block_slot(*fb.name),
                                                     lambda(fs, *fb.param, *fb.body, fb.loc, std::move(specials)));
        body.steps.push_back(std::make_unique<BindStmt>(sloc(first.loc), std::move(eq)));
      } else {
        body.steps.push_back(std::make_unique<BindStmt>(sloc(first.loc), equation(fs, *first.equation, block_slot)));
      }
      continue;
    }
    // Mutually recursive functions: one capture list for all, so any member
    // can rebuild any other from its own captures.
    auto captures = std::make_shared<CaptureList>();
    auto index = std::make_shared<std::unordered_map<std::string, uint32_t>>();
    std::vector<FunctionBinding> fbs(group.size());
    std::vector<LambdaCode*> codes;
    for (size_t k = 0; k < group.size(); ++k) {
      as_function_binding(*stmts[group[k]], fbs[k]);
      codes.push_back(arena_.make<LambdaCode>(sloc(fbs[k].loc), captures));
    }
    std::vector<GroupStmt::Member> members;
    for (size_t k = 0; k < group.size(); ++k) {
      std::unordered_map<std::string, Special> specials;
      for (size_t j = 0; j < group.size(); ++j)
        specials[*fbs[j].name] =
            j == k ? Special{CaptureSource::Kind::SelfFn} : Special{CaptureSource::Kind::Sibling, codes[j]};
      members.push_back({block_slot(*fbs[k].name), lambda(fs, *fbs[k].param, *fbs[k].body, fbs[k].loc,
                                                          std::move(specials), captures, index, codes[k])});
    }
    body.steps.push_back(std::make_unique<GroupStmt>(sloc(first.loc), std::move(members)));
  }

  for (size_t i : plan.effects) body.steps.push_back(effect(fs, *stmts[i]));
}

std::unique_ptr<StmtNode> Compiler::effect(FnScope& fs, const ast::Stmt& s) {
  const rt::SourceLoc l = sloc(s.loc);
  switch (s.kind) {
    case ast::StmtKind::Send:
      return std::make_unique<SendStmt>(l, expr(fs, *s.value), expr(fs, *s.target));
    case ast::StmtKind::After:
      return std::make_unique<AfterStmt>(l, expr(fs, *s.delay), expr(fs, *s.value), expr(fs, *s.target));
    case ast::StmtKind::Become:
      check_not_top(fs, s.loc, "BECOME");
      return std::make_unique<BecomeStmt>(l, expr(fs, *s.value));
    case ast::StmtKind::Throw:
      return std::make_unique<ThrowStmt>(l, expr(fs, *s.value));
    case ast::StmtKind::Expr:
      return std::make_unique<ExprStmt>(l, expr(fs, *s.value));
    case ast::StmtKind::Import:
      error(s.loc, "IMPORT can only be used at top level");
    case ast::StmtKind::Let:
    case ast::StmtKind::Create:
      break;
  }
  error(s.loc, "internal error: not an effect statement");
}

// A top-level statement: runs on its own, in order; what it binds becomes
// global, and is published only once the whole statement has succeeded.
std::unique_ptr<TopStmt> Compiler::top(const ast::Stmt& s) {
  auto t = std::make_unique<TopStmt>();
  t->loc = s.loc;
  t->source_loc = sloc(s.loc);
  FnScope fs;
  fs.layout = &t->layout;
  fs.top_level = true;
  fs.captures = std::make_shared<CaptureList>();
  fs.capture_index = std::make_shared<std::unordered_map<std::string, uint32_t>>();
  BlockScope root;
  fs.block = &root;
  blocks_defer_ = s.kind != ast::StmtKind::Expr;

  // Names a top-level statement binds are globals: other code (including the
  // statement's own functions) finds them by global slot, late-bound.
  auto publish = [&](const std::string& name) {
    uint32_t slot = fs.new_slot();
    t->publish.emplace_back(slot, rt_.globals().slot(name));
    return slot;
  };

  switch (s.kind) {
    case ast::StmtKind::Let: {
      const ast::Equation& eq = *s.equation;
      std::unique_ptr<Equation> compiled;
      if (eq.kind == ast::Equation::Kind::FunctionDef) {
        uint32_t slot = publish(eq.name);
        compiled = std::make_unique<FunctionEquation>(slot, lambda(fs, *eq.param, *eq.body, eq.loc, {}));
      } else {
        compiled = equation(fs, eq, publish);
      }
      t->body.steps.push_back(std::make_unique<BindStmt>(sloc(s.loc), std::move(compiled)));
      break;
    }
    case ast::StmtKind::Create: {
      // The actor is visible to its own behavior expression (CREATE x WITH beh(x)).
      uint32_t slot = publish(s.name);
      root.slots[s.name] = slot;
      t->body.creates.push_back(slot);
      t->body.steps.push_back(std::make_unique<CreateStmt>(sloc(s.loc), slot, expr(fs, *s.value)));
      break;
    }
    case ast::StmtKind::Expr:
      t->expr = expr(fs, *s.value);
      break;
    case ast::StmtKind::Import:
      t->is_import = true;
      t->import = s.name;
      break;
    default:
      t->body.steps.push_back(effect(fs, s));
      break;
  }
  return t;
}

}  // namespace

std::unique_ptr<CompiledUnit> compile_program(const ast::Program& program, rt::Runtime& rt, CodeArena& arena) {
  arena.keep(program.source);
  auto unit = std::make_unique<CompiledUnit>();
  unit->source = program.source;
  Compiler c(program, rt, arena);
  for (const auto& s : program.stmts) unit->stmts.push_back(c.top(*s));
  unit->warnings = std::move(c.warnings);
  return unit;
}

}  // namespace humus::interp
