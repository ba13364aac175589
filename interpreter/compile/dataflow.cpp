#include "interpreter/compile/dataflow.hpp"

#include <algorithm>
#include <unordered_map>

#include "interpreter/compile/compile_error.hpp"

namespace humus::interp {

namespace {

void collect_binders(const ast::Pattern& p, std::vector<std::pair<std::string, ast::Loc>>& out) {
  switch (p.kind) {
    case ast::PatternKind::Bind:
      out.emplace_back(p.name, p.loc);
      break;
    case ast::PatternKind::Tuple:
      for (const auto& e : p.elements) collect_binders(*e, out);
      break;
    default:
      break;
  }
}

// Walks an expression keeping count of the names bound around the current point.
class FreeNameWalker {
 public:
  explicit FreeNameWalker(NameSet& out) : out_(out) {}

  void expr(const ast::Expr& e) {
    switch (e.kind) {
      case ast::ExprKind::Const:
      case ast::ExprKind::Self:
      case ast::ExprKind::Now:
        break;
      case ast::ExprKind::Var:
        use(e.name);
        break;
      case ast::ExprKind::Lambda: {
        pattern_terms(*e.param);
        auto names = pattern_binders(*e.param);
        bind(names);
        expr(*e.body);
        unbind(names);
        break;
      }
      case ast::ExprKind::Block:
        block(e.stmts);
        break;
      case ast::ExprKind::Call:
        expr(*e.callee);
        if (e.argument) expr(*e.argument);
        break;
      case ast::ExprKind::Tuple:
        for (const auto& x : e.elements) expr(*x);
        break;
      case ast::ExprKind::New:
        expr(*e.body);
        break;
      case ast::ExprKind::LetIn: {
        auto names = equation(*e.equation);
        bind(names);
        expr(*e.body);
        unbind(names);
        break;
      }
      case ast::ExprKind::If:
        for (const auto& b : e.branches) {
          auto names = equation(b.condition);
          bind(names);
          expr(*b.body);
          unbind(names);
        }
        if (e.body) expr(*e.body);
        break;
      case ast::ExprKind::Case:
        expr(*e.body);
        for (const auto& a : e.alternatives) {
          pattern_terms(*a.pattern);
          auto names = pattern_binders(*a.pattern);
          bind(names);
          expr(*a.body);
          unbind(names);
        }
        break;
    }
  }

  // Visits what an equation uses; returns what it binds (for the caller's scope).
  std::vector<std::pair<std::string, ast::Loc>> equation(const ast::Equation& eq) {
    std::vector<std::pair<std::string, ast::Loc>> names;
    switch (eq.kind) {
      case ast::Equation::Kind::FunctionDef: {
        names.emplace_back(eq.name, eq.name_loc);
        pattern_terms(*eq.param);
        auto params = pattern_binders(*eq.param);
        bind(names);  // the function may call itself
        bind(params);
        expr(*eq.body);
        unbind(params);
        unbind(names);
        break;
      }
      case ast::Equation::Kind::Match:
        pattern_terms(*eq.lhs);
        pattern_terms(*eq.rhs);
        collect_binders(*eq.lhs, names);
        collect_binders(*eq.rhs, names);
        break;
      case ast::Equation::Kind::PatternDef:
        expr(*eq.body);
        pattern_terms(*eq.lhs);
        collect_binders(*eq.lhs, names);
        break;
    }
    return names;
  }

  void block(const std::vector<ast::StmtPtr>& stmts) {
    std::vector<std::pair<std::string, ast::Loc>> names;
    for (const auto& s : stmts) {
      auto b = statement_binders(*s);
      names.insert(names.end(), b.begin(), b.end());
    }
    bind(names);
    for (const auto& s : stmts) statement(*s);
    unbind(names);
  }

  void statement(const ast::Stmt& s) {
    switch (s.kind) {
      case ast::StmtKind::Let:
        equation(*s.equation);
        break;
      case ast::StmtKind::Create:
      case ast::StmtKind::Become:
      case ast::StmtKind::Throw:
      case ast::StmtKind::Expr:
        expr(*s.value);
        break;
      case ast::StmtKind::Send:
        expr(*s.value);
        expr(*s.target);
        break;
      case ast::StmtKind::After:
        expr(*s.delay);
        expr(*s.value);
        expr(*s.target);
        break;
      case ast::StmtKind::Import:
        break;
    }
  }

  // The $terms inside a pattern are expressions evaluated in the enclosing scope.
  void pattern_terms(const ast::Pattern& p) {
    if (p.kind == ast::PatternKind::Value) expr(*p.value);
    for (const auto& e : p.elements) pattern_terms(*e);
  }

 private:
  void use(const std::string& name) {
    auto it = bound_.find(name);
    if (it == bound_.end() || it->second == 0) out_.insert(name);
  }
  void bind(const std::vector<std::pair<std::string, ast::Loc>>& names) {
    for (const auto& n : names) ++bound_[n.first];
  }
  void unbind(const std::vector<std::pair<std::string, ast::Loc>>& names) {
    for (const auto& n : names) --bound_[n.first];
  }

  std::unordered_map<std::string, int> bound_;
  NameSet& out_;
};

NameSet statement_free_names(const ast::Stmt& s) {
  NameSet out;
  FreeNameWalker(out).statement(s);
  return out;
}

}  // namespace

NameSet free_names(const ast::Expr& e) {
  NameSet out;
  FreeNameWalker(out).expr(e);
  return out;
}

std::vector<std::pair<std::string, ast::Loc>> pattern_binders(const ast::Pattern& p) {
  std::vector<std::pair<std::string, ast::Loc>> out;
  collect_binders(p, out);
  return out;
}

std::vector<std::pair<std::string, ast::Loc>> statement_binders(const ast::Stmt& s) {
  std::vector<std::pair<std::string, ast::Loc>> out;
  if (s.kind == ast::StmtKind::Create) {
    out.emplace_back(s.name, s.name_loc);
  } else if (s.kind == ast::StmtKind::Let) {
    const ast::Equation& eq = *s.equation;
    if (eq.kind == ast::Equation::Kind::FunctionDef) {
      out.emplace_back(eq.name, eq.name_loc);
    } else {
      if (eq.lhs) collect_binders(*eq.lhs, out);
      if (eq.rhs) collect_binders(*eq.rhs, out);
    }
  }
  return out;
}

bool as_function_binding(const ast::Stmt& s, FunctionBinding& out) {
  if (s.kind != ast::StmtKind::Let) return false;
  const ast::Equation& eq = *s.equation;
  if (eq.kind == ast::Equation::Kind::FunctionDef) {
    out = {&eq.name, eq.name_loc, eq.param.get(), eq.body.get(), eq.loc};
    return true;
  }
  if (eq.kind == ast::Equation::Kind::PatternDef && eq.lhs->kind == ast::PatternKind::Bind &&
      eq.body->kind == ast::ExprKind::Lambda) {
    out = {&eq.lhs->name, eq.lhs->loc, eq.body->param.get(), eq.body->body.get(), eq.body->loc};
    return true;
  }
  return false;
}

BlockPlan plan_block(const std::vector<ast::StmtPtr>& stmts) {
  BlockPlan plan;
  const size_t n = stmts.size();

  // Which statement binds each name (CREATE names exist from the start, so
  // nothing depends on a CREATE statement).
  std::unordered_map<std::string, std::pair<size_t, ast::Loc>> bound_by;
  std::vector<size_t> binding_stmts;
  for (size_t i = 0; i < n; ++i) {
    const ast::Stmt& s = *stmts[i];
    for (const auto& [name, loc] : statement_binders(s)) {
      auto [it, fresh] = bound_by.emplace(name, std::make_pair(i, loc));
      if (!fresh) {
        const ast::Loc first = it->second.second;
        throw CompileError{loc, "'" + name + "' is bound twice in this block (first at " + std::to_string(first.line) +
                                    ":" + std::to_string(first.column) + ")"};
      }
    }
    if (s.kind == ast::StmtKind::Create) {
      plan.creates.push_back(i);
      binding_stmts.push_back(i);
    } else if (s.kind == ast::StmtKind::Let) {
      binding_stmts.push_back(i);
    } else {
      plan.effects.push_back(i);
    }
  }

  // Edges: statement i uses a name bound by LET/DEF statement j.
  std::vector<std::vector<size_t>> deps(n);
  for (size_t i : binding_stmts) {
    for (const auto& name : statement_free_names(*stmts[i])) {
      auto it = bound_by.find(name);
      if (it != bound_by.end() && stmts[it->second.first]->kind == ast::StmtKind::Let)
        deps[i].push_back(it->second.first);
    }
    std::sort(deps[i].begin(), deps[i].end());
    deps[i].erase(std::unique(deps[i].begin(), deps[i].end()), deps[i].end());
  }

  // Tarjan's algorithm, iteratively (a generated block may hold thousands of
  // statements). Components come out dependencies-first: execution order.
  std::vector<int> index(n, -1), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<size_t> stack;
  int counter = 0;
  struct Visit {
    size_t node;
    size_t next_edge;
  };
  for (size_t root : binding_stmts) {
    if (index[root] >= 0) continue;
    std::vector<Visit> work{{root, 0}};
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!work.empty()) {
      Visit& v = work.back();
      if (v.next_edge < deps[v.node].size()) {
        size_t w = deps[v.node][v.next_edge++];
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = true;
          work.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v.node] = std::min(low[v.node], index[w]);
        }
        continue;
      }
      size_t node = v.node;
      work.pop_back();
      if (!work.empty()) low[work.back().node] = std::min(low[work.back().node], low[node]);
      if (low[node] != index[node]) continue;
      std::vector<size_t> group;
      size_t w;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[w] = false;
        group.push_back(w);
      } while (w != node);
      std::sort(group.begin(), group.end());
      bool cyclic = group.size() > 1 || std::find(deps[node].begin(), deps[node].end(), node) != deps[node].end();
      if (cyclic) {
        FunctionBinding fb;
        for (size_t m : group) {
          if (!as_function_binding(*stmts[m], fb)) {
            const auto binders = statement_binders(*stmts[m]);
            const std::string name = binders.empty() ? "?" : binders.front().first;
            throw CompileError{stmts[m]->loc, "circular definition of " + name};
          }
        }
      }
      plan.bindings.push_back(std::move(group));
    }
  }
  return plan;
}

}  // namespace humus::interp
