// The abstract syntax tree: what the parser produces and the compiler consumes.
//
// The tree mirrors LANGUAGE.md sections 3-6 closely, with two deliberate
// flattenings that keep every later pass free of deep C++ recursion:
//   * a tuple `a, b, c` is one TupleExpr / TuplePattern with three elements
//     (the last element is the tail), not three nested pairs, so a tuple
//     with a million elements is a flat vector (and one of a million
//     literals a packed constant: PackedConstants);
//   * IF/ELIF chains and CASE alternatives are vectors, not nested nodes.
// Nesting that remains (parentheses, blocks, lambdas, LET ... IN) is bounded
// by the parser's nesting limit.
//
// Both dialects map onto the same nodes: `LET f(x) = e` and `DEF f(x) AS e`
// are both an Equation of kind FunctionDef.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace humus::ast {

// A source text with its name, shared by every node that points into it.
// Compiled code keeps it alive so that runtime errors can quote the line.
struct Source {
  std::string name;  // as shown in diagnostics: "fib.hum", "<stdin>", "<repl:3>"
  std::string text;
  // A standard-library module: a runtime error raised in it is reported
  // where the program called into it (the VM's blame_caller).
  bool library = false;
};
using SourcePtr = std::shared_ptr<const Source>;

// 1-based line and column (column counts bytes).
struct Loc {
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Expr;
struct Pattern;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using PatternPtr = std::unique_ptr<Pattern>;
using StmtPtr = std::unique_ptr<Stmt>;

struct PackedConstants;

// A literal constant, shared by expressions and patterns.
struct Constant {
  enum class Kind : uint8_t {
    Integer,  // digits + radix (chars are Integers too: 'a' is radix 10 "97")
    String,   // UTF-8 text (escapes resolved) in `text`
    Symbol,   // name without '#'
    True,
    False,
    Nil,        // NIL or ()
    Undefined,  // ?
    List,       // a tuple of many literals, packed (expressions only; see PackedConstants)
  };
  Kind kind = Kind::Nil;
  bool negative = false;                        // Integer: leading '-'
  uint32_t radix = 10;                          // Integer: 2..36
  std::string text;                             // Integer: digits as written (validated for the
                                                // radix); Symbol: the name; String: its UTF-8
  std::shared_ptr<const PackedConstants> list;  // List
};

// A tuple expression of kPackedAtLeast or more elements that are all
// literals (`1, 2, 3, ...`, `#a, 'b', "c", TRUE, ...`): kept as the
// literals' texts, a dozen bytes an element rather than a syntax node each,
// so that a literal of a million elements costs little to compile (issues
// 20 and 34). As a tuple, the last element is the tail.
struct PackedConstants {
  static constexpr std::size_t kPackedAtLeast = 32;
  struct Item {
    Constant::Kind kind;  // not List
    bool negative;
    uint8_t radix;
    uint32_t offset, length;  // of its text (Constant::text) in `text`
  };
  std::string text;
  std::vector<Item> items;

  void add(const Constant& c) {
    items.push_back({c.kind, c.negative, static_cast<uint8_t>(c.radix), static_cast<uint32_t>(text.size()),
                     static_cast<uint32_t>(c.text.size())});
    text += c.text;
  }
  std::size_t size() const { return items.size(); }
  Constant at(std::size_t i) const {
    Constant c;
    c.kind = items[i].kind;
    c.negative = items[i].negative;
    c.radix = items[i].radix;
    c.text = text.substr(items[i].offset, items[i].length);
    return c;
  }
};

// ---------------------------------------------------------------- patterns

enum class PatternKind : uint8_t {
  Wildcard,  // _
  Bind,      // ident
  Const,     // integer, char, string, #sym, TRUE, FALSE, NIL, (), ?
  Value,     // $term
  Self,      // SELF
  Tuple,     // p1, p2, ..., pn   (n >= 2; pn matches the rest)
};

struct Pattern {
  PatternKind kind;
  Loc loc;
  std::string name;                  // Bind
  Constant constant;                 // Const
  ExprPtr value;                     // Value: the term after '$'
  std::vector<PatternPtr> elements;  // Tuple
  explicit Pattern(PatternKind k, Loc l) : kind(k), loc(l) {}
};

// -------------------------------------------------------------- equations

// eqtn := ident '(' ptrn ')' '=' expr     (FunctionDef; also DEF f(x) AS expr)
//       | ptrn '=' ptrn                   (Match)
//       | ptrn AS expr                    (PatternDef: only from `DEF ptrn AS expr`)
struct Equation {
  enum class Kind : uint8_t { FunctionDef, Match, PatternDef };
  Kind kind;
  Loc loc;
  // FunctionDef
  std::string name;
  Loc name_loc;
  PatternPtr param;
  ExprPtr body;  // FunctionDef body, or PatternDef value
  // Match: lhs = rhs;  PatternDef: lhs AS body
  PatternPtr lhs;
  PatternPtr rhs;
};

// ------------------------------------------------------------- expressions

enum class ExprKind : uint8_t {
  Const,   // literal
  Var,     // identifier
  Self,    // SELF
  Now,     // NOW
  Lambda,  // \ptrn.expr
  Block,   // [ stmts ]
  Call,    // f(x), f(a, b), f()   -- only without whitespace before '('
  Tuple,   // e1, e2, ..., en      (n >= 2, right-nested pairs)
  New,     // NEW term
  LetIn,   // LET eqtn IN expr
  If,      // IF eqtn e { ELIF eqtn e } [ ELSE e ]
  Case,    // CASE e OF { ptrn : e } END
};

struct IfBranch {
  Equation condition;
  ExprPtr body;
};

struct CaseAlt {
  PatternPtr pattern;
  ExprPtr body;
};

struct Expr {
  ExprKind kind;
  Loc loc;
  Constant constant;                   // Const
  std::string name;                    // Var
  PatternPtr param;                    // Lambda
  ExprPtr body;                        // Lambda body, New behavior, LetIn body,
                                       // If else-branch (may be null), Case subject
  std::vector<StmtPtr> stmts;          // Block
  ExprPtr callee;                      // Call
  ExprPtr argument;                    // Call (null for f())
  std::vector<ExprPtr> elements;       // Tuple
  std::unique_ptr<Equation> equation;  // LetIn
  std::vector<IfBranch> branches;      // If (at least one)
  std::vector<CaseAlt> alternatives;   // Case
  explicit Expr(ExprKind k, Loc l) : kind(k), loc(l) {}
};

// -------------------------------------------------------------- statements

enum class StmtKind : uint8_t {
  Let,     // LET eqtn   and   DEF ... AS ...  (both bind)
  Create,  // CREATE ident WITH expr
  Send,    // SEND expr TO expr
  After,   // AFTER expr SEND expr TO expr
  Become,  // BECOME expr
  Throw,   // THROW expr
  Import,  // IMPORT "name"
  Expr,    // expr (a block to run here, or ?)
};

struct Stmt {
  StmtKind kind;
  Loc loc;
  std::unique_ptr<Equation> equation;  // Let
  std::string name;                    // Create: the actor's name; Import: the module string
  Loc name_loc;                        // Create: the name; Import: the string
  ExprPtr value;                       // Create behavior, Send/After message, Become, Throw, Expr
  ExprPtr target;                      // Send/After target
  ExprPtr delay;                       // After
  explicit Stmt(StmtKind k, Loc l) : kind(k), loc(l) {}
};

// A parsed file or REPL input: top-level statements in source order.
struct Program {
  SourcePtr source;
  std::vector<StmtPtr> stmts;
};

}  // namespace humus::ast
