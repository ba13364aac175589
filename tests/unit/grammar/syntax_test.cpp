// Every production of LANGUAGE.md sections 1-6, in both dialects, checked
// through the shape of the AST it produces.
#include <doctest/doctest.h>

#include <tao/pegtl/contrib/analyze.hpp>

#include "ast_dump.hpp"
#include "grammar/grammar.hpp"

using humus::test::parse;
using humus::test::parsed;
namespace ast = humus::ast;

TEST_CASE("the grammar has no infinite loops or other analyze problems") {
  CHECK(tao::pegtl::analyze<humus::grammar::program>(1) == 0);
}

TEST_CASE("lexical: identifiers, keywords, comments, constants") {
  CHECK(parsed("cust cust' k_fib zero? a->b -x - café x1") ==
        "cust | cust' | k_fib | zero? | a->b | -x | - | café | x1");
  CHECK(parsed("LETTER IFFY END' NIL?") == "LETTER | IFFY | END' | NIL?");
  CHECK(parsed("SELF NOW ? TRUE FALSE NIL ()") == "SELF | NOW | ? | TRUE | FALSE | NIL | NIL");
  CHECK(parsed("#foo #bar' #END") == "#foo | #bar' | #END");
  CHECK(parsed("x # a comment\n#\ty\n# \n#") == "x");
  // '##' starts a comment too, as in humus_js and uFork ("## heading", "##no space")
  CHECK(parsed("## heading\nx ##tail\n###\ny") == "x | y");
  CHECK(parsed("1 ##") == "1");
  CHECK(parsed("## a heading\n#### ----\nx ##y\n") == "x");  // '#' then '#': a comment too
  CHECK(parsed("a#b") == "a | #b");
  CHECK(parsed("") == "");
  CHECK(parsed("  \t\r\n ") == "");
  CHECK(parsed("\xEF\xBB\xBFx") == "x");  // a byte order mark is skipped
}

TEST_CASE("lexical: integers") {
  CHECK(parsed("42 -7 0 007") == "42 | -7 | 0 | 007");
  CHECK(parsed("16#FF 2#1010 36#z -16#ff 10#9") == "16#FF | 2#1010 | 36#z | -16#ff | 9");
  auto r = parse("-16#fF");
  REQUIRE(r.program);
  const auto& c = r.program->stmts[0]->value->constant;
  CHECK(c.kind == ast::Constant::Kind::Integer);
  CHECK(c.negative);
  CHECK(c.radix == 16);
  CHECK(c.text == "fF");
  CHECK(parsed("f(-1)") == "(call f -1)");
  CHECK(parsed("x-1") == "x-1");  // one identifier
}

TEST_CASE("lexical: characters and strings") {
  CHECK(parsed("'a' '\\n' '\\t' '\\r' '\\b' '\\'' '\\\"' '\\\\' '\"' 'λ' ' '") ==
        "97 | 10 | 9 | 13 | 8 | 39 | 34 | 92 | 34 | 955 | 32");
  CHECK(parsed("\"ab\"") == "str[97,98]");
  CHECK(parsed("\"\"") == "str[]");
  CHECK(parsed("\"a\\n\\\"\\\\'\"") == "str[97,10,34,92,39]");
  CHECK(parsed("\"two\nlines\"") == "str[116,119,111,10,108,105,110,101,115]");
  CHECK(parsed("\"λ€😀 # not a comment\"") ==
        "str[955,8364,128512,32,35,32,110,111,116,32,97,32,99,111,109,109,101,110,116]");
}

TEST_CASE("expressions: terms, calls and tuples") {
  CHECK(parsed("f(x)") == "(call f x)");
  CHECK(parsed("f(a, b)") == "(call f (, a b))");
  CHECK(parsed("f()") == "(call f)");
  CHECK(parsed("f( )") == "(call f)");
  CHECK(parsed("f(1)(2)") == "(call (call f 1) 2)");
  CHECK(parsed("(f)(x)") == "(call f x)");
  CHECK(parsed("(f(x))(y)(z)") == "(call (call (call f x) y) z)");
  CHECK(parsed("[ f (x) ]") == "[f; x]");  // whitespace before '(': not a call
  CHECK(parsed("(x)") == "x");
  CHECK(parsed("((x))") == "x");
  CHECK(parsed("( )") == "NIL");
  CHECK(parsed("1, 2, 3") == "(, 1 2 3)");
  CHECK(parsed("1,2,3") == "(, 1 2 3)");
  CHECK(parsed("(1, 2), 3") == "(, (, 1 2) 3)");
  CHECK(parsed("1, (2, 3)") == "(, 1 (, 2 3))");
  CHECK(parsed("f(a, b), g(c)") == "(, (call f (, a b)) (call g c))");
  CHECK(parsed("NEW serializer_beh(svc)") == "(NEW (call serializer_beh svc))");
  CHECK(parsed("NEW NEW b") == "(NEW (NEW b))");
  CHECK(parsed("NEW empty_queue_beh, x") == "(, (NEW empty_queue_beh) x)");
}

TEST_CASE("expressions: functions and blocks") {
  CHECK(parsed("\\x.x") == "(\\ x x)");
  CHECK(parsed("λx.x") == "(\\ x x)");
  CHECK(parsed("\\ x . x") == "(\\ x x)");
  CHECK(parsed("\\x.x, 1") == "(\\ x (, x 1))");
  CHECK(parsed("(\\x.x), 1") == "(, (\\ x x) 1)");
  CHECK(parsed("\\(cust, req).[ SEND req TO cust ]") == "(\\ (, cust req) [SEND req TO cust])");
  CHECK(parsed("\\x.\\y.add(x, y)") == "(\\ x (\\ y (call add (, x y))))");
  CHECK(parsed("[]") == "[]");
  CHECK(parsed("[ ]") == "[]");
  CHECK(parsed("[ a b [c] ]") == "[a; b; [c]]");
}

TEST_CASE("expressions: LET, IF, CASE") {
  CHECK(parsed("f(LET x = $y IN x)") == "(call f (LET x = $y IN x))");
  CHECK(parsed("f(LET g(x) = x IN g(1))") == "(call f (LET g(x) = x IN (call g 1)))");
  CHECK(parsed("f(IF $x = 1 a)") == "(call f (IF $x = 1 a))");
  CHECK(parsed("f(IF $x = 1 a ELSE b)") == "(call f (IF $x = 1 a ELSE b))");
  CHECK(parsed("f(IF $x = 1 a ELIF $x = 2 b ELIF $x = 3 c ELSE d)") ==
        "(call f (IF $x = 1 a ELIF $x = 2 b ELIF $x = 3 c ELSE d))");
  CHECK(parsed("IF $x = 1 : [a] ELIF $x = 2 : [b]") == "(IF $x = 1 [a] ELIF $x = 2 [b])");  // classic ':'
  CHECK(parsed("IF $x = 1 a, b ELSE c, d") == "(IF $x = 1 (, a b) ELSE (, c d))");
  CHECK(parsed("CASE x OF END") == "(CASE x OF END)");
  CHECK(parsed("CASE x OF 1 : a (b, c) : d, e _ : f END") == "(CASE x OF 1 : a (, b c) : (, d e) _ : f END)");
  CHECK(parsed("CASE f(x) OF #take : [ SEND NIL TO cust ] (#put, item) : [ ] END") ==
        "(CASE (call f x) OF #take : [SEND NIL TO cust] (, #put item) : [] END)");
  CHECK(parsed("1, LET x = 1 IN x, 2") == "(, 1 (LET x = 1 IN (, x 2)))");
  CHECK(parsed("1, IF $x = 1 a ELSE b") == "(, 1 (IF $x = 1 a ELSE b))");
  CHECK(parsed("a, CASE x OF END") == "(, a (CASE x OF END))");
  CHECK(parsed("IF $a = b IF $c = d x ELSE y") == "(IF $a = b (IF $c = d x ELSE y))");  // dangling ELSE: inner
}

TEST_CASE("patterns") {
  CHECK(parsed("\\_.x") == "(\\ _ x)");
  CHECK(parsed("\\_x.x") == "(\\ _x x)");
  CHECK(parsed("\\$x.x") == "(\\ $x x)");
  CHECK(parsed("\\$ f(x).x") == "(\\ $(call f x) x)");
  CHECK(parsed("\\$(add(n, 1)).x") == "(\\ $(call add (, n 1)) x)");
  CHECK(parsed("\\().x") == "(\\ NIL x)");
  CHECK(parsed("\\(a, b).x") == "(\\ (, a b) x)");
  CHECK(parsed("\\a, b, c.x") == "(\\ (, a b c) x)");
  CHECK(parsed("\\((a, b), c).x") == "(\\ (, (, a b) c) x)");
  CHECK(parsed("\\(a).x") == "(\\ a x)");
  CHECK(parsed("\\(1, 'a', \"s\", #sym, SELF, ?, TRUE, FALSE, NIL, -16#F).x") ==
        "(\\ (, 1 97 str[115] #sym SELF ? TRUE FALSE NIL -16#F) x)");
  CHECK(parsed("LET x = $add(1, 2)") == "LET x = $(call add (, 1 2))");
  CHECK(parsed("LET (a, b) = $pair") == "LET (, a b) = $pair");
  // compatibility extension: a function or block constant as a pattern is its value
  CHECK(parsed("LET f = \\x.x") == "LET f = $(\\ x x)");
  CHECK(parsed("LET b = [ SEND 1 TO x ]") == "LET b = $[SEND 1 TO x]");
  CHECK(parsed("LET $pending = ((cust', req'), rest)") == "LET $pending = (, (, cust' req') rest)");
}

TEST_CASE("equations and statements: classic and current dialects") {
  CHECK(parsed("LET f(x) = add(x, 1)") == "LET f(x) = (call add (, x 1))");
  CHECK(parsed("LET f (x) = x") == "LET f(x) = x");
  CHECK(parsed("LET f(x, y) = x") == "LET f((, x y)) = x");
  CHECK(parsed("LET x = $y") == "LET x = $y");
  CHECK(parsed("LET x = 1") == "LET x = 1");
  CHECK(parsed("LET x = $y IN [ SEND x TO y ]") == "(LET x = $y IN [SEND x TO y])");
  CHECK(parsed("DEF f(x) AS add(x, 1)") == "LET f(x) = (call add (, x 1))");
  CHECK(parsed("DEF f () AS 1") == "LET f(NIL) = 1");
  CHECK(parsed("DEF f() AS 1") == "LET f(NIL) = 1");
  CHECK(parsed("DEF x AS 1, 2") == "LET x AS (, 1 2)");
  CHECK(parsed("DEF (a, b) AS pair") == "LET (, a b) AS pair");
  CHECK(parsed("DEF $x AS y") == "LET $x AS y");
  CHECK(parsed("CREATE ret WITH return_beh(SELF)") == "CREATE ret WITH (call return_beh SELF)");
  CHECK(parsed("SEND (ret, req) TO svc") == "SEND (, ret req) TO svc");
  CHECK(parsed("SEND ret, req TO svc") == "SEND (, ret req) TO svc");
  CHECK(parsed("AFTER 1000 SEND #tick TO SELF") == "AFTER 1000 SEND #tick TO SELF");
  CHECK(parsed("BECOME serializer_beh(svc)") == "BECOME (call serializer_beh svc)");
  CHECK(parsed("THROW #oops, x") == "THROW (, #oops x)");
  CHECK(parsed("IMPORT \"list\" IMPORT \"lib/λ.hum\"") == "IMPORT \"list\" | IMPORT \"lib/λ.hum\"");
  CHECK(parsed("[ LET x = $y  DEF z AS x  CREATE a WITH b  SEND 1 TO a  BECOME c  THROW d  e ]") ==
        "[LET x = $y; LET z AS x; CREATE a WITH b; SEND 1 TO a; BECOME c; THROW d; e]");
  CHECK(parsed("LET f(x) = x DEF g(y) AS y") == "LET f(x) = x | LET g(y) = y");
}

TEST_CASE("node kinds and element counts") {
  auto r = parse("DEF f(a, b) AS [ SEND (a, b, NIL) TO f() ]");
  REQUIRE(r.program);
  REQUIRE(r.program->stmts.size() == 1);
  const ast::Stmt& s = *r.program->stmts[0];
  CHECK(s.kind == ast::StmtKind::Let);
  const ast::Equation& q = *s.equation;
  CHECK(q.kind == ast::Equation::Kind::FunctionDef);
  CHECK(q.name == "f");
  CHECK(q.param->kind == ast::PatternKind::Tuple);
  CHECK(q.param->elements.size() == 2);
  CHECK(q.body->kind == ast::ExprKind::Block);
  REQUIRE(q.body->stmts.size() == 1);
  const ast::Stmt& send = *q.body->stmts[0];
  CHECK(send.kind == ast::StmtKind::Send);
  CHECK(send.value->kind == ast::ExprKind::Tuple);
  CHECK(send.value->elements.size() == 3);
  CHECK(send.target->kind == ast::ExprKind::Call);
  CHECK(send.target->argument == nullptr);
  CHECK(r.program->source->name == "t.hum");
}

TEST_CASE("locations: every node at its first character") {
  //                  1        10        20        30
  //                  123456789012345678901234567890123456789
  auto r = parse("x\n  DEF f(a) AS \\(b, c).[ SEND g(b) TO c ]\n\tLET y = $z");
  REQUIRE(r.program);
  const auto& stmts = r.program->stmts;
  REQUIRE(stmts.size() == 3);
  auto at = [](ast::Loc l, uint32_t line, uint32_t col) { return l.line == line && l.column == col; };
  CHECK(at(stmts[0]->loc, 1, 1));
  const ast::Stmt& def = *stmts[1];
  CHECK(at(def.loc, 2, 3));
  CHECK(at(def.equation->loc, 2, 7));
  CHECK(at(def.equation->name_loc, 2, 7));
  CHECK(at(def.equation->param->loc, 2, 9));
  const ast::Expr& lam = *def.equation->body;
  CHECK(at(lam.loc, 2, 15));
  CHECK(at(lam.param->loc, 2, 17));               // the tuple pattern starts at b
  CHECK(at(lam.param->elements[1]->loc, 2, 20));  // c
  CHECK(at(lam.body->loc, 2, 23));                // [
  const ast::Stmt& send = *lam.body->stmts[0];
  CHECK(at(send.loc, 2, 25));
  CHECK(at(send.value->loc, 2, 30));            // g(b): the call at g
  CHECK(at(send.value->argument->loc, 2, 32));  // b
  CHECK(at(send.target->loc, 2, 38));
  const ast::Stmt& let = *stmts[2];
  CHECK(at(let.loc, 3, 2));  // a tab is one column
  CHECK(at(let.equation->loc, 3, 6));
  CHECK(at(let.equation->rhs->loc, 3, 10));
  CHECK(at(let.equation->rhs->value->loc, 3, 11));

  auto c = parse("CREATE  act WITH b");
  REQUIRE(c.program);
  CHECK(at(c.program->stmts[0]->name_loc, 1, 9));
}
