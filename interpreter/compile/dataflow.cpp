#include "interpreter/compile/dataflow.hpp"

#include <algorithm>
#include <unordered_map>

#include "interpreter/compile/compile_error.hpp"

namespace humus::compile {

namespace {

// The names used in what `walk` gives the ScopeWalker that are bound nowhere in it.
template <class Walk>
NameSet unbound_names(Walk walk) {
  NameSet out;
  ScopeWalker walker([&](const std::string& name, ast::Loc, std::optional<ast::Loc> binder) {
    if (!binder) out.insert(name);
  });
  walk(walker);
  return out;
}

NameSet statement_free_names(const ast::Stmt& s) {
  return unbound_names([&](ScopeWalker& w) { w.statement(s); });
}

}  // namespace

NameSet free_names(const ast::Expr& e) {
  return unbound_names([&](ScopeWalker& w) { w.expr(e); });
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

}  // namespace humus::compile
