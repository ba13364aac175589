// The passes over finished code (compile/last_use.cpp, compile/drop_plan.cpp):
// which copies become moves, and which registers each end releases.
// Read off the disassembly, the way a reader of `humus --dump-code` sees it.
#include <doctest/doctest.h>

#include <atomic>
#include <string>

#include "interpreter/compile/superinstructions.hpp"
#include "tests/unit/interpreter/disassembly.hpp"

namespace {

using test_code::code_of;
using test_code::has;

size_t occurrences(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a register read for the last time is moved, not copied") {
  const std::string code = code_of("DEF swap(a, b) AS (b, a)\n");
  // Both halves are moved into the pair; the end has nothing left to release.
  CHECK(has(code, "PAIR        a=2 b=1 c=0 x=3\n"));
  CHECK(has(code, "RET         a=2 b=0 c=0 x=128  [drops none]\n"));
}

TEST_CASE("a register read twice by one instruction is copied") {
  const std::string code = code_of("DEF dup(x) AS (x, x)\n");
  CHECK(has(code, "PAIR        a=1 b=0 c=0\n"));  // no x: both halves are counted copies
  CHECK(has(code, "RET         a=1 b=1 c=0 x=128  [drops 0]\n"));
}

TEST_CASE("a pair matched for the last time is taken apart in place") {
  const std::string code = code_of("DEF first(p) AS CASE p OF (h, _) : h END\n");
  CHECK(has(code, "UNPAIRJ     a=0 b=1 c=1 x=1  -> 2\n"));
  // The tail (R2) is still held at the end; the head is the result, and
  // the pair's register was emptied: only R2 is released (a bound would
  // walk R0 .. R2).
  CHECK(has(code, "RET         a=1 b=4 c=0 x=128  [drops 2]\n"));
}

TEST_CASE("a variable read again later is copied until its last read") {
  const std::string code = code_of("DEF twice(f, x) AS f(f(x))\n");
  // The outer callee is loaded first: a copy, as f is read again for the
  // inner call, which moves it (x=1: move R(b); the inner call's callee and
  // argument are set out by one MOVE2, whose second MOVE stays listed).
  CHECK(has(code, "MOVE        a=2 b=0 c=0\n"));
  CHECK(has(code, "MOVE2       a=4 b=0 c=1 x=3\n"));
  CHECK(has(code, "MOVE        a=5 b=1 c=0 x=1\n"));
}

TEST_CASE("alternatives that begin (name, #tag, ...) take the subject apart once") {
  const std::string code = code_of("DEF f(m) AS CASE m OF (c, #a) : c (d, #b, v) : (d, v) _ : 0 END\n");
  // One UNPAIRJ of the subject per entry (value, statement, behavior), not
  // one per alternative; the second alternative names the shared head d
  // and tests its tag on the shared tail (JNTAG R2).
  CHECK(occurrences(code, "UNPAIRJ     a=0") == 3);
  CHECK(has(code, "JNWORD      a=2 b=0 c=1  -> 3  ; #a\n"));
  CHECK(has(code, "JNTAG       a=2 b=1 c=3  -> 7  ; #b\n"));
  // A run broken by another shape: each part shares its own.
  const std::string two = code_of("DEF g(m) AS CASE m OF (c, #a) : 1 (c, #b) : 2 (#x, y) : y (c, #d) : 3 END\n");
  CHECK(occurrences(two, "UNPAIRJ     a=0") ==
        2 * 3);  // the run of two, and (c, #d) alone; (#x, y) tests its tag with JNTAG
}

TEST_CASE("two moves into neighbouring registers become one MOVE2") {
  using humus::engine::Instr;
  using humus::engine::Op;
  humus::engine::Proto p;
  p.code = {Instr{Op::MOVE, 1, 4, 0, 0}, Instr{Op::MOVE, 0, 5, 1, 0},   // fused: x says which are moves
            Instr{Op::MOVE, 0, 6, 2, 0}, Instr{Op::MOVE, 0, 7, 6, 0},   // not: the second reads the first's
            Instr{Op::MOVE, 0, 9, 3, 0}, Instr{Op::MOVE, 0, 11, 3, 0},  // not: not neighbours
            Instr{Op::MOVE, 0, 2, 0, 0}};                               // last: nothing to pair with
  humus::compile::fuse_instructions(p);
  CHECK(p.code[0].op == Op::MOVE2);
  CHECK(p.code[0].x == 1);
  CHECK((p.code[0].a == 4 && p.code[0].b == 0 && p.code[0].c == 1));
  CHECK(p.code[1].op == Op::MOVE);  // kept: a jump may land on it
  for (size_t i = 2; i < p.code.size(); ++i) CHECK(p.code[i].op == Op::MOVE);
}

TEST_CASE("a sum, difference or remainder tested at once becomes one instruction") {
  using humus::engine::Instr;
  using humus::engine::Op;
  humus::engine::Proto p;
  p.code = {Instr{Op::SUB, 0, 4, 3, 2},  Instr{Op::JNEQ, 0, 0, 4, 1},     // fused
            Instr{Op::ADD, 1, 4, 3, 0},  Instr{Op::JNEQ, 0, 4, 0, 1},     // fused: the JNEQ's a and b swapped
            Instr{Op::ADD, 0, 4, 3, 2},  Instr{Op::JNEQ, 0, 0, 5, 1},     // not: the JNEQ compares other registers
            Instr{Op::SUB, 0, 4, 3, 2},  Instr{Op::JNEQ, 0, 4, 4, 1},     // not: the result with itself
            Instr{Op::MOD, 0, 2, 0, 1},  Instr{Op::JNWORD, 0, 2, 1, 1},   // fused
            Instr{Op::MODP, 0, 1, 0, 1}, Instr{Op::JNWORD, 0, 1, 3, 1},   // fused
            Instr{Op::MOD, 0, 2, 0, 1},  Instr{Op::JNWORD, 0, 3, 1, 1}};  // not: tests another register
  humus::compile::fuse_instructions(p);
  CHECK(p.code[0].op == Op::SUBJNEQ);
  CHECK((p.code[1].op == Op::JNEQ && p.code[1].a == 0 && p.code[1].b == 4));  // kept: a jump may land on it
  CHECK(p.code[2].op == Op::ADDJNEQ);
  CHECK(p.code[2].x == 1);  // still K(c)
  CHECK((p.code[3].op == Op::JNEQ && p.code[3].a == 0 && p.code[3].b == 4));
  CHECK(p.code[4].op == Op::ADD);
  CHECK(p.code[6].op == Op::SUB);
  CHECK(p.code[8].op == Op::MODJNWORD);
  CHECK(p.code[10].op == Op::MODPJNWORD);
  CHECK(p.code[12].op == Op::MOD);
}

TEST_CASE("a list loop's pair and head test, and its count and call of itself, become one instruction each") {
  using humus::engine::Instr;
  using humus::engine::Op;
  std::atomic<uint64_t> self{0}, other{0};
  humus::engine::Proto p;
  p.arity = 2;
  p.globals = {{&self, 7}, {&other, 8}};
  p.code = {Instr{Op::UNPAIRJB, 2, 1, 3, 9}, Instr{Op::JNEQ, 0, 0, 3, 1},      // fused
            Instr{Op::UNPAIRJB, 2, 1, 3, 9}, Instr{Op::JNWORD, 0, 3, 0, 1},    // not: another test
            Instr{Op::ADDI, 0, 2, 2, 32769}, Instr{Op::TAILCALL, 3, 4, 2, 1},  // fused: a TAILSELF of G0
            Instr{Op::DROPS, 128, 3, 0, 0},  Instr{Op::ADDI, 0, 2, 2, 32769},
            Instr{Op::TAILCALL, 3, 4, 2, 2},  // not: G1, another global than the first TAILSELF's
            Instr{Op::DROPS, 128, 3, 0, 0}};
  humus::compile::fuse_instructions(p);
  CHECK(p.code[0].op == Op::UNPAIRJBJNEQ);
  CHECK(p.code[1].op == Op::JNEQ);  // kept: a jump may land on it
  CHECK(p.code[2].op == Op::UNPAIRJB);
  CHECK(p.code[4].op == Op::ADDISELF);
  CHECK(p.code[5].op == Op::TAILSELF);
  CHECK(p.code[7].op == Op::ADDI);
  CHECK(p.code[8].op == Op::TAILCALL);
  CHECK(p.self_cell == &self);  // the TAILSELF's global, read from the Proto
}

TEST_CASE("a fused sum or difference that nothing reads after its comparison is not written") {
  using test_code::function;
  // nqueens' test: each result is compared, and read by nothing after.
  const std::string near = function(
      code_of("DEF near(q, p, d) AS IF $q = $sub(p, d) #below ELIF $q = $add(p, d) #above ELSE #free\n"), "1:5");
  CHECK(has(near, "SUBJNEQ     a=3 b=1 c=2 x=4\n"));
  CHECK(has(near, "ADDJNEQ     a=3 b=1 c=2 x=4\n"));
  // The result named and read again where the test jumps, and where it
  // goes on: written.
  const std::string kept =
      function(code_of("DEF kept(q, p, d) AS LET s = $sub(p, d) IN IF $q = $s (#eq, s) ELSE (#ne, s)\n"), "1:5");
  CHECK(has(kept, "SUBJNEQ     a=3 b=1 c=2\n"));
  const std::string jumped =
      function(code_of("DEF jumped(q, p, d) AS LET s = $add(p, d) IN IF $q = $s #eq ELSE (#ne, s)\n"), "1:5");
  CHECK(has(jumped, "ADDJNEQ     a=3 b=1 c=2\n"));
}

TEST_CASE("a list loop takes the list apart in place: the tail stays in the parameter's register") {
  // skip's closure captures its list, so it does not borrow it
  // (borrow_plan_test.cpp).
  const std::string code =
      code_of("DEF skip(l, n) AS IF $n = 0 \\x.l ELSE CASE l OF (_, t) : skip(t, sub(n, 1)) _ : NIL END\n");
  // x=3: the head to R2, the tail over the pair in R0, where skip's first
  // parameter is; the tail call finds both arguments in place, and is
  // TAILSELF: a comparison of the global with the running function, then
  // the next turn.
  CHECK(has(code, "UNPAIRJ     a=0 b=2 c=3 x=3  -> 7\n"));
  CHECK(has(code, "TAILSELF    a=3 b=2 c=1 x=3\n"));
  CHECK(code.substr(0, code.find("RETK")).find("MOVE") == std::string::npos);  // the value entry
  // The loop's tail call releases only what the iteration wrote (R2).
  CHECK(has(code, "DROPS       a=7 b=0 c=0 x=128  [drops 0,1,2]\n"));
}

TEST_CASE("a recursive function that calls itself in tail position releases what it leaves there") {
  // eval's IF arm leaves the other branch (R3 or R4) and the test's value
  // (R5) in the frame when it calls itself. Kept for the next turn (TAILCALL),
  // they would be released by every end, the NIL arm's too; released by the
  // tail call itself (TAILCALLD), the ends release only what they wrote.
  const std::string code = code_of(
      "DEF eval(e) AS CASE e OF\n"
      "  (#if, c, t, f) : IF $eval(c) = TRUE eval(t) ELSE eval(f)\n"
      "  (#not, x) : IF $eval(x) = TRUE FALSE ELSE TRUE\n"
      "  _ : e\n"
      "END\n");
  const std::string value = code.substr(0, code.find("; ?"));  // the value entry, to its "no match"
  // (TAILSELFD: TAILCALLD of the global with its argument in place.)
  CHECK(occurrences(value, "TAILSELFD") == 2);
  CHECK(value.find("TAILCALL") == std::string::npos);
  CHECK(value.find("TAILSELF ") == std::string::npos);
  CHECK(has(value, "TAILSELFD   a=5 b=1 c=1 x=1\n"));
  CHECK(has(value, "[drops 0,4,5]\n"));  // the then-branch's call releases f and the test's value
  CHECK(has(value, "[drops 0,3,5]\n"));  // the else-branch's: t and the test's value
  CHECK(has(value, "RET         a=0 b=12 c=0 x=128  [drops 2,3]\n"));  // `_ : e`: no R4, no R5
}

TEST_CASE("a loop keeps what a turn leaves for the next turn to overwrite") {
  // No call inside the loop: it calls itself far more often than it ends,
  // so its tail call releases nothing and every end releases R2 instead.
  const std::string code = code_of("DEF len(l, n) AS CASE l OF (_, t) : len(t, add(n, 1)) _ : n END\n");
  CHECK(code.find("TAILCALLD") == std::string::npos);
  // A loop whose turns call, but whose ends would not release less either way.
  const std::string sum = code_of(
      "DEF sum(l, n) AS CASE l OF (h, t) : sum(t, add(n, abs(h))) _ : n END\n"
      "DEF abs(x) AS CASE less(x, 0) OF TRUE : sub(0, x) _ : x END\n");
  CHECK(sum.find("TAILCALLD") == std::string::npos);
}

TEST_CASE("a pair the alternative reads again is not taken apart in place") {
  // The body reads l: the pair stays whole in R0.
  const std::string code = code_of("DEF f(l) AS CASE l OF (h, t) : (l, t) _ : l END\n");
  CHECK(has(code, "UNPAIRJ     a=0 b=1 c="));
  CHECK(code.find("x=3  ->") == std::string::npos);
  // A tagged head: tested by JNTAG; only the tail is taken, over the pair in place.
  const std::string tagged = code_of("DEF g(m) AS CASE m OF (#add, rest) : g(rest) _ : m END\n");
  CHECK(has(tagged, "JNTAG       a=0 b=0 c=3  -> 4  ; #add\n"));
  CHECK(has(tagged, "TAIL        a=0 b=0 c=0 x=1\n"));
}

TEST_CASE("after a tag is tested only the tail is taken: the tag is never copied") {
  // The subject is read again by the next alternative: the tail is copied
  // out (x=0) into the register after the tag's, which stays unused.
  const std::string code = code_of("DEF f(m) AS CASE m OF (#a, x, y) : add(x, y) (#b, x) : x (#c, x) : x _ : 0 END\n");
  CHECK(has(code, "TAGSWITCH   a=0 b=0 c="));
  // (x, y) is taken out of the tail at once: TAIL and UNPAIRJ fused, the
  // UNPAIRJ word left for a tail that is not a pair.
  CHECK(has(code, "TAILUNPAIRJ a=0 b=2 c=0\n"));
  CHECK(has(code, "UNPAIRJ     a=2 b=2 c="));
  CHECK(has(code, "TAIL        a=0 b=0 c=0 x=1\n"));  // (#b, x): the tail alone, in place
  CHECK(code.find("UNPAIR      a=0") == std::string::npos);
  // A tag after the first part: the spine's register is emptied (x=1).
  const std::string mid = code_of("DEF g(r) AS CASE r OF (k, #is, v) : (k, v) _ : r END\n");
  CHECK(has(mid, "JNTAG       a=2 b=0 c=3  -> 5  ; #is\n"));
  CHECK(has(mid, "TAIL        a=2 b=3 c=0 x=1\n"));
}

TEST_CASE("registers past R15 are released by a bound, not a set") {
  std::string names;
  for (int i = 1; i <= 18; ++i) names += (i > 1 ? ", a" : "a") + std::to_string(i);
  const std::string code = code_of("DEF pick(t) AS CASE t OF (" + names + ") : a1 END\n");
  // a2 .. a18 are still held in R2 .. R18 when a1 is returned.
  CHECK(has(code, "RET         a=1 b=19 c=0  [drops 0-18]\n"));
}

TEST_CASE("a top-level DEF of a function has no statement code; other statements do") {
  const std::string code = code_of("DEF f(x) AS add(x, 1)\nDEF g AS f(2)\nLET h(y) = y\n");
  // DEF f and LET h: the function is bound as it is, with no CLOSURE and SETGLOBAL to run.
  CHECK(has(code, "== statement 1:1\n  define f = function \\test.hum:1:5\n== function \\test.hum:1:5\n"));
  CHECK(has(code, "== statement 3:1\n  define h = function \\test.hum:3:5\n"));
  CHECK(code.find("CLOSURE") == std::string::npos);
  // DEF g computes its value: code of its own, which binds it.
  CHECK(has(code, "== statement 2:1\nregisters"));
  CHECK(has(code, "SETGLOBAL   a=0 b=1 c=0\n"));
}
