// Functions, closures and block values: each literal's code compiled once
// in its three modes, and the closures that capture what it uses.
#include "interpreter/compile/compiler_impl.hpp"

#include "interpreter/compile/borrow_plan.hpp"
#include "interpreter/compile/drop_plan.hpp"
#include "interpreter/compile/last_use.hpp"
#include "interpreter/compile/lend_plan.hpp"
#include "interpreter/compile/superinstructions.hpp"

namespace humus::compile::codegen {

// Once a Proto's code is whole: the parameters its value code only walks
// are borrowed, last reads become moves, then each end of a frame learns
// which registers it must release, then a borrowed argument copied into a
// call of one that borrows it too is lent (lend_plan.hpp), then pairs of moves are fused
// (superinstructions.cpp). Its tables then keep no
// spare capacity: a script of many small functions is mostly Protos.
void plan_registers(Proto& p) {
  plan_borrows(p);
  plan_moves(p);
  plan_drops(p);
  plan_lending(p);
  fuse_instructions(p);
  p.code.shrink_to_fit();
  p.pos.shrink_to_fit();
  p.consts.shrink_to_fit();
  p.globals.shrink_to_fit();
  p.switches.shrink_to_fit();
  if (p.tables) {
    p.tables->closures.shrink_to_fit();
    p.tables->blocks.shrink_to_fit();
    p.tables->groups.shrink_to_fit();
    p.tables->siblings.shrink_to_fit();
  }
}

// One entry of a function (proto.hpp): the parameters are matched where
// the call left them, then the body runs in `mode`.
void Compiler::entry(Fn& fn, const ast::Pattern& param, const ast::Expr& body, Mode mode, uint32_t& at) {
  at = here(fn);
  Proto& p = *fn.proto;
  fn.top = 0;
  alloc(fn, p.arity, param.loc);
  ScopeGuard scope(fn);
  Labels fails;
  Binders b;
  if (p.arity >= 2)
    for (uint32_t i = 0; i < p.arity; ++i) match(fn, *param.elements[i], i, true, fails, b);
  else
    match(fn, param, 0, true, fails, b);
  publish(fn, b);
  into(fn, body, Dest::returning(mode));
  if (!fails.empty()) {
    patch(fn, fails, here(fn));
    finish(fn, mode, param.loc);
  }
  if (mode == Mode::Value && fn.code) plan_factory(fn, param, body);
}

LambdaCode* Compiler::lambda(Fn& parent, const ast::Pattern& param, const ast::Expr& body, ast::Loc loc,
                             std::unordered_map<std::string, Special> specials, std::shared_ptr<Captures> caps,
                             LambdaCode* code) {
  if (auto it = lambdas_.find(&body); it != lambdas_.end()) return it->second;
  check_unique(param);
  if (!code) code = arena_.make<LambdaCode>(sloc(loc));
  if (!caps) caps = std::make_shared<Captures>();
  lambdas_[&body] = code;
  captures_[code] = caps;
  Fn fn;
  fn.parent = &parent;
  fn.proto = &code->proto;
  fn.caps = caps;
  fn.specials = std::move(specials);
  fn.top_level = false;
  code->proto.file = &source_->name;
  code->proto.library = source_->library;
  code->proto.arity = spread_arity(param);
  fn.code = code;
  entry(fn, param, body, Mode::Value, code->proto.entry_value);
  entry(fn, param, body, Mode::Stmt, code->proto.entry_stmt);
  entry(fn, param, body, Mode::Behavior, code->proto.entry_behavior);
  plan_registers(code->proto);
  if (!code->factory) code->direct_arity = code->proto.arity;
  return code;
}

// A body that is just a lambda whose captures are parameters given as plain
// names (or the function's own captures, or the function itself) makes a
// behavior factory, `DEF counter(sum) AS \msg.[...]`: a call of it makes the
// closure straight from the arguments, without a frame. Runs in the value
// entry's parameter scope, once the body is compiled.
void Compiler::plan_factory(Fn& fn, const ast::Pattern& param, const ast::Expr& body) {
  if (body.kind != ast::ExprKind::Lambda) return;
  LambdaCode& code = *fn.code;
  const uint32_t arity = code.proto.arity;
  auto plain = [&](uint32_t i) {
    const ast::Pattern& p = arity >= 2 ? *param.elements[i] : param;
    return p.kind == ast::PatternKind::Bind || p.kind == ast::PatternKind::Wildcard;
  };
  for (uint32_t i = 0; i < arity; ++i)
    if (!plain(i)) return;
  const LambdaCode* inner = lambdas_.at(body.body.get());
  std::vector<LambdaCode::FactorySource> sources;
  for (const auto& name : captures_.at(inner)->names) {
    Resolved r = resolve(fn, name);
    switch (r.kind) {
      case Resolved::Kind::Reg:
        if (r.index >= arity) return;
        sources.push_back({LambdaCode::FactorySource::Kind::Arg, r.index});
        continue;
      case Resolved::Kind::Capture:
        sources.push_back({LambdaCode::FactorySource::Kind::Capture, r.index});
        continue;
      case Resolved::Kind::SelfFn:
        sources.push_back({LambdaCode::FactorySource::Kind::SelfFn, 0});
        continue;
      case Resolved::Kind::Sibling:
      case Resolved::Kind::Global:
        return;
    }
  }
  code.factory = inner;
  code.factory_sources = std::move(sources);
}

// Names the code of DEF name(...) AS body, and the lambda its body is, if
// it is one: `DEF counter(n) AS \msg.[...]` gives actors whose behavior a
// trace calls counter.
LambdaCode* Compiler::named(LambdaCode* code, const std::string& name, const ast::Expr& body) {
  code->name = name;
  if (body.kind == ast::ExprKind::Lambda)
    if (auto it = lambdas_.find(body.body.get()); it != lambdas_.end() && it->second->name.empty())
      it->second->name = name;
  return code;
}

void Compiler::emit_closure(Fn& fn, LambdaCode* code, uint32_t dst, ast::Loc l) {
  std::vector<CaptureSource> sources;
  for (const auto& name : captures_.at(code)->names) sources.push_back(source_for(fn, name));
  fn.proto->more().closures.push_back({code, std::move(sources)});
  emit(fn, Op::CLOSURE, l, dst, uint32_t(fn.proto->more().closures.size() - 1));
}

void Compiler::closure(Fn& fn, const ast::Expr& e, uint32_t dst) {
  // `\x.[ ... ], y` is one function returning a pair, by the rule that a
  // body extends as far as it can; it is almost always meant as (\x.[ ... ]), y.
  if (e.body->kind == ast::ExprKind::Tuple && e.body->elements.front()->kind == ast::ExprKind::Block)
    warn(e.loc,
         "this function's body is a pair that starts with a block; if the function "
         "should end at that ']', put it in parentheses: (\\x.[ ... ]), ...");
  LambdaCode* code = lambda(fn, *e.param, *e.body, e.loc, {});
  emit_closure(fn, code, dst, e.loc);
}

// [ stmts ] as a value: statement code of its own, capturing what it uses.
void Compiler::block_value(Fn& fn, const ast::Expr& e, uint32_t dst) {
  BlockCodeImpl* code;
  if (auto it = blocks_.find(&e); it != blocks_.end()) {
    code = it->second;
  } else {
    code = arena_.make<BlockCodeImpl>(sloc(e.loc));
    blocks_[&e] = code;
    auto caps = std::make_shared<Captures>();
    captures_[code] = caps;
    Fn inner;
    inner.parent = &fn;
    inner.proto = &code->proto;
    inner.caps = caps;
    inner.top_level = fn.top_level && !blocks_defer_;
    code->proto.file = &source_->name;
    code->proto.library = source_->library;
    code->proto.arity = 0;
    code->proto.entry_stmt = 0;
    {
      ScopeGuard scope(inner);
      block_body(inner, e.stmts, true, e.loc);
    }
    plan_registers(code->proto);
  }
  std::vector<CaptureSource> sources;
  for (const auto& name : captures_.at(code)->names) sources.push_back(source_for(fn, name));
  fn.proto->more().blocks.push_back({code, std::move(sources)});
  emit(fn, Op::BLOCK, e.loc, dst, uint32_t(fn.proto->more().blocks.size() - 1));
}

// Mutually recursive functions of one block: one capture list for all, so
// any member can make any other from its own captures.
void Compiler::group(Fn& fn, const std::vector<FunctionBinding>& fbs, const std::vector<uint32_t>& regs, ast::Loc l) {
  std::vector<LambdaCode*> codes;
  std::shared_ptr<Captures> caps;
  if (auto it = lambdas_.find(fbs.front().body); it != lambdas_.end()) {
    for (const auto& fb : fbs) codes.push_back(lambdas_.at(fb.body));
    caps = captures_.at(codes.front());
  } else {
    caps = std::make_shared<Captures>();
    for (const auto& fb : fbs) codes.push_back(arena_.make<LambdaCode>(sloc(fb.loc)));
    for (size_t k = 0; k < fbs.size(); ++k) {
      std::unordered_map<std::string, Special> specials;
      for (size_t j = 0; j < fbs.size(); ++j)
        specials[*fbs[j].name] =
            j == k ? Special{CaptureSource::Kind::SelfFn} : Special{CaptureSource::Kind::Sibling, codes[j]};
      named(lambda(fn, *fbs[k].param, *fbs[k].body, fbs[k].loc, std::move(specials), caps, codes[k]), *fbs[k].name,
            *fbs[k].body);
    }
  }
  GroupPlan plan;
  for (size_t k = 0; k < codes.size(); ++k) plan.members.emplace_back(codes[k], regs[k]);
  for (const auto& name : caps->names) plan.sources.push_back(source_for(fn, name));
  fn.proto->more().groups.push_back(std::move(plan));
  emit(fn, Op::GROUP, l, 0, uint32_t(fn.proto->more().groups.size() - 1));
}

}  // namespace humus::compile::codegen
