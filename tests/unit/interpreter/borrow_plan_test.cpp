// Borrowed parameters (compile/borrow_plan.cpp): which functions' value code
// walks its list uncounted, read off the disassembly. What running them
// does is tested by tests/scripts/borrowed_walks.hum.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "tests/unit/interpreter/disassembly.hpp"

namespace {

using test_code::code_of;
using test_code::function;
using test_code::has;

// Its value code: from the listing's start to the statement entry.
std::string value_code(const std::string& fn) {
  const size_t stmt = fn.find("statement ");
  const std::string entry = fn.substr(stmt + 10, fn.find(' ', stmt + 10) - stmt - 10);
  const size_t to = fn.find("\n" + std::string(4 - std::min<size_t>(4, entry.size()), ' ') + entry + " ");
  return fn.substr(0, to);
}

}  // namespace

TEST_CASE("a loop over a list it was given borrows the list") {
  const std::string len = function(code_of("DEF len(l, n) AS CASE l OF (_, t) : len(t, add(n, 1)) _ : n END\n"), "1:5");
  // R0 (the list) and R2 (the head) hold words uncounted; the frame keeps
  // the call's one count of the list (its anchor, engine/frames.hpp).
  CHECK(has(len, "borrowed 0,2, loop entry 1\n"));
  CHECK(has(len, "   0   1:29  BORROW      a=0 b=0 c=0\n"));
  // Taken apart uncounted, the tail over the pair (x=2), and the loop goes
  // on past the BORROW (loop entry 1).
  CHECK(has(len, "UNPAIRJB    a=0 b=2 c=3 x=2  -> 5\n"));
  CHECK(has(len, "TAILSELF    a=3 b=2 c=1 x=3\n"));
  // Its ends empty the borrowed registers (R0, R2) before they release the
  // frame, so the frame's release leaves them out: nothing else is held.
  CHECK(has(len, "RETB        a=1 b=0 c=0 x=128  [drops none]\n"));
  // The statement code is counted, and still takes the list apart in place;
  // its loop sets the arguments out in place too (TAILSELFST).
  CHECK(has(len, "UNPAIRJ     a=0 b=2 c=3 x=3  -> 11\n"));
  CHECK(has(len, "TAILSELFST  a=3 b=2 c=1 x=1\n"));
}

TEST_CASE("a part copied into a new value is counted; a part moved back into the parameter is not") {
  const std::string keys =
      function(code_of("DEF keys(l, acc) AS CASE l OF ((k, _), t) : keys(t, (k, acc)) _ : acc END\n"), "1:5");
  CHECK(has(keys, "borrowed 0,2,3,4,5,"));
  // The head is a pair too, taken apart uncounted as well.
  CHECK(has(keys, "UNPAIRJB    a=0 b=2 c=5  -> 7\n"));
  CHECK(has(keys, "UNPAIRJB    a=2 b=4 c=4  -> 7\n"));
  // The tail goes to the parameter for the next turn, a word alone.
  CHECK(has(keys, "MOVEB       a=0 b=3 c=0\n"));
  // k goes into the new pair counted (no x=1: a copy); acc is still moved.
  CHECK(has(keys, "PAIR        a=1 b=4 c=1 x=2\n"));
}

TEST_CASE("a function whose list leaves it counts it") {
  const std::string code = code_of(
      "DEF first(p) AS CASE p OF (h, _) : h END\n"  // no loop: nothing to gain
      "DEF g(x) AS IF $x = 0 0 ELSE g(sub(x, 1))\n"
      // a part in a register a callee's frame covers: g's frame begins at
      // R3, over x's R2, which a call of itself leaves set
      "DEF late(l, n) AS IF $g(n) = 0 n ELSE CASE l OF (x, t) : late(t, add(n, x)) _ : n END\n"
      "DEF again(l) AS CASE l OF (h, t) : IF $h = 0 again((1, t)) ELSE h _ : 0 END\n"  // a new list
      "DEF kept(l) AS CASE l OF (h, t) : \\x.t _ : 0 END\n");                          // captured
  for (const char* at : {"1:5", "3:5", "4:5", "5:5"}) {
    CAPTURE(at);
    const std::string fn = function(code, at);
    CHECK(!has(fn, "BORROW"));
    CHECK(!has(fn, "UNPAIRJB"));
    CHECK(!has(fn, "borrowed"));
  }
}

TEST_CASE("a part returned is counted before the frame lets go of the list") {
  const std::string lookup = function(code_of("DEF lookup(t, i) AS CASE t OF\n"
                                              "  (h, left, right) : IF $less(i, h) = TRUE lookup(left, i) ELSE "
                                              "lookup(right, sub(i, h))\n"
                                              "  _ : t\n"
                                              "END\n"),
                                      "1:5");
  CHECK(has(lookup, "borrowed 0,2,3,4, loop entry 1\n"));
  CHECK(has(lookup, "UNPAIRJB    a=3 b=3 c=8  -> 11\n"));  // (left, right) into R3, R4
  CHECK(has(lookup, "MOVEB       a=0 b=3 c=0\n"));
  CHECK(has(lookup, "MOVEB       a=0 b=4 c=0\n"));
  // x=1: the leaf (R0, borrowed) is counted, then returned.
  CHECK(has(lookup, "RETB        a=0 b=2 c=0 x=129  [drops 1]\n"));  // R2, R3, R4: borrowed
}

TEST_CASE("a part passed to a call is lent to it") {
  const std::string code = code_of(
      "DEF g(x) AS IF $x = 0 0 ELSE g(sub(x, 1))\n"
      "DEF calls(l, n) AS CASE l OF (h, t) : calls(t, add(g(h), n)) _ : n END\n");
  const std::string calls = value_code(function(code, "2:5"));
  CHECK(has(calls, "borrowed 0,2, loop entry 1\n"));
  // Copied uncounted; g borrows nothing, so the call counts it for g's
  // frame when it is made (compile/lend_plan.hpp).
  CHECK(has(calls, "MOVEL       a=7 b=2 c=0\n"));
  CHECK(has(calls, "CALLL       a=6 b=1 c=2 x=1\n"));
}

TEST_CASE("one parameter is borrowed: the first that passes") {
  const std::string code = code_of(
      "DEF both(a, b, n) AS CASE a OF (_, s) : CASE b OF (_, t) : both(s, t, add(n, 1)) _ : n END _ : n END\n"
      "DEF second(a, b) AS CASE a OF (x, _) : CASE b OF (_, t) : second((x, a), t) _ : 0 END _ : 0 END\n");
  const std::string both = value_code(function(code, "1:5"));
  CHECK(has(both, "BORROW      a=0 b=0 c=0\n"));
  CHECK(has(both, "UNPAIRJB    a=0 "));
  CHECK(has(both, "UNPAIRJ     a=1 "));  // b is counted, taken apart as before
  // a is passed on in a new pair: b is the one borrowed.
  const std::string second = value_code(function(code, "2:5"));
  CHECK(has(second, "BORROW      a=0 b=1 c=0\n"));
  CHECK(has(second, "UNPAIRJB    a=1 "));
}
