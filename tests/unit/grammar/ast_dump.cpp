#include "ast_dump.hpp"

#include <fmt/format.h>

namespace humus::test {

namespace {

std::string dump_constant(const ast::Constant& c) {
  using K = ast::Constant::Kind;
  switch (c.kind) {
    case K::Integer:
      return (c.negative ? "-" : "") + (c.radix == 10 ? std::string() : fmt::format("{}#", c.radix)) + c.text;
    case K::String: {
      std::string s = "str[";
      // Its code points, decoded from the UTF-8 the syntax tree holds.
      for (std::size_t i = 0; i < c.text.size();) {
        const auto b = static_cast<unsigned char>(c.text[i]);
        const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        uint32_t cp = n == 1 ? b : b & (0xFF >> (n + 1));
        for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(c.text[i + k]) & 0x3F);
        s += (i ? "," : "") + std::to_string(cp);
        i += n;
      }
      return s + "]";
    }
    case K::Symbol:
      return "#" + c.text;
    case K::True:
      return "TRUE";
    case K::False:
      return "FALSE";
    case K::Nil:
      return "NIL";
    case K::Undefined:
      return "?";
    case K::List: {
      std::string s = "packed(";
      for (std::size_t i = 0; i < c.list->size(); ++i) s += (i ? ", " : "") + dump_constant(c.list->at(i));
      return s + ")";
    }
  }
  return "<bad constant>";
}

template <typename T>
std::string join(const std::vector<T>& v, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? std::string(sep) : std::string()) + humus::test::dump(*v[i]);
  return s;
}

}  // namespace

std::string dump(const ast::Expr& e) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Const:
      return dump_constant(e.constant);
    case K::Var:
      return e.name;
    case K::Self:
      return "SELF";
    case K::Now:
      return "NOW";
    case K::Lambda:
      return fmt::format("(\\ {} {})", dump(*e.param), dump(*e.body));
    case K::Block:
      return "[" + join(e.stmts, "; ") + "]";
    case K::Call:
      return e.argument ? fmt::format("(call {} {})", dump(*e.callee), dump(*e.argument))
                        : fmt::format("(call {})", dump(*e.callee));
    case K::Tuple:
      return "(, " + join(e.elements, " ") + ")";
    case K::New:
      return fmt::format("(NEW {})", dump(*e.body));
    case K::LetIn:
      return fmt::format("(LET {} IN {})", dump(*e.equation), dump(*e.body));
    case K::If: {
      std::string s = "(IF";
      for (std::size_t i = 0; i < e.branches.size(); ++i) {
        s += fmt::format("{} {} {}", i ? " ELIF" : "", dump(e.branches[i].condition), dump(*e.branches[i].body));
      }
      if (e.body) s += " ELSE " + dump(*e.body);
      return s + ")";
    }
    case K::Case: {
      std::string s = "(CASE " + dump(*e.body) + " OF";
      for (const auto& a : e.alternatives) s += fmt::format(" {} : {}", dump(*a.pattern), dump(*a.body));
      return s + " END)";
    }
  }
  return "<bad expr>";
}

std::string dump(const ast::Pattern& p) {
  using K = ast::PatternKind;
  switch (p.kind) {
    case K::Wildcard:
      return "_";
    case K::Bind:
      return p.name;
    case K::Const:
      return dump_constant(p.constant);
    case K::Value:
      return "$" + dump(*p.value);
    case K::Self:
      return "SELF";
    case K::Tuple:
      return "(, " + join(p.elements, " ") + ")";
  }
  return "<bad pattern>";
}

std::string dump(const ast::Equation& q) {
  switch (q.kind) {
    case ast::Equation::Kind::FunctionDef:
      return fmt::format("{}({}) = {}", q.name, dump(*q.param), dump(*q.body));
    case ast::Equation::Kind::Match:
      return fmt::format("{} = {}", dump(*q.lhs), dump(*q.rhs));
    case ast::Equation::Kind::PatternDef:
      return fmt::format("{} AS {}", dump(*q.lhs), dump(*q.body));
  }
  return "<bad equation>";
}

std::string dump(const ast::Stmt& s) {
  using K = ast::StmtKind;
  switch (s.kind) {
    case K::Let:
      return "LET " + dump(*s.equation);
    case K::Create:
      return fmt::format("CREATE {} WITH {}", s.name, dump(*s.value));
    case K::Send:
      return fmt::format("SEND {} TO {}", dump(*s.value), dump(*s.target));
    case K::After:
      return fmt::format("AFTER {} SEND {} TO {}", dump(*s.delay), dump(*s.value), dump(*s.target));
    case K::Become:
      return "BECOME " + dump(*s.value);
    case K::Throw:
      return "THROW " + dump(*s.value);
    case K::Import:
      return fmt::format("IMPORT \"{}\"", s.name);
    case K::Expr:
      return dump(*s.value);
  }
  return "<bad stmt>";
}

std::string dump(const ast::Program& p) { return join(p.stmts, " | "); }

std::string parsed(std::string text) {
  auto r = parse(std::move(text));
  if (r.error) return fmt::format("ERROR {}:{}: {}", r.error->loc.line, r.error->loc.column, r.error->message);
  return dump(*r.program);
}

}  // namespace humus::test
