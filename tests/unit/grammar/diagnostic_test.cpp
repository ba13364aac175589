#include <doctest/doctest.h>

#include "ast_dump.hpp"
#include "grammar/diagnostic.hpp"

using humus::parse::format_diagnostic;

TEST_CASE("format_diagnostic: header, source line and caret") {
  humus::ast::Source src{"fib.hum", "LET x = 1\nSEND (k, n) x\n"};
  CHECK(format_diagnostic(src, {2, 13}, "error", "expected 'TO' after the message of SEND") ==
        "fib.hum:2:13: error: expected 'TO' after the message of SEND\n"
        "SEND (k, n) x\n"
        "            ^\n");
  CHECK(format_diagnostic(src, {1, 1}, "error", "m") == "fib.hum:1:1: error: m\nLET x = 1\n^\n");
}

TEST_CASE("format_diagnostic: tabs are kept so the caret lines up") {
  humus::ast::Source src{"q.hum", "[\n\t\tBECOME x y\r\n]"};
  CHECK(format_diagnostic(src, {2, 12}, "error", "boom") == "q.hum:2:12: error: boom\n\t\tBECOME x y\n\t\t         ^\n");
}

TEST_CASE("format_diagnostic: multi-byte characters take one column") {
  // The location counts bytes (x is byte 8); the column shown counts characters (6).
  humus::ast::Source src{"u.hum", "\"λλ\" x"};
  CHECK(format_diagnostic(src, {1, 8}, "runtime error in actor @3", "bad") ==
        "u.hum:1:6: runtime error in actor @3: bad\n\"λλ\" x\n     ^\n");
  CHECK(humus::parse::char_column(src.text, {1, 8}) == 6);
  CHECK(humus::parse::char_column(src.text, {1, 1}) == 1);
  CHECK(humus::parse::char_column(src.text, {1, 9}) == 7);   // at the end of the line
  CHECK(humus::parse::char_column(src.text, {1, 11}) == 9);  // past it
  CHECK(humus::parse::position_text("a\n€€b", {2, 7}) == "2:3");
}

TEST_CASE("format_diagnostic: at the end of the input and without a position") {
  humus::ast::Source src{"<repl:3>", "SEND x\n"};
  CHECK(format_diagnostic(src, {1, 7}, "error", "e") == "<repl:3>:1:7: error: e\nSEND x\n      ^\n");
  CHECK(format_diagnostic(src, {2, 1}, "error", "e") == "<repl:3>:2:1: error: e\n\n^\n");
  CHECK(format_diagnostic(src, {9, 4}, "error", "e") == "<repl:3>:9:4: error: e\n\n   ^\n");
  CHECK(format_diagnostic(src, {0, 0}, "error", "e") == "<repl:3>: error: e\n");
}

TEST_CASE("format_diagnostic of a parse error") {
  auto src = humus::test::source("DEF f(x) AS [\n\tSEND x y\n]", "a.hum");
  auto r = humus::parse::parse_program(src);
  REQUIRE(r.error);
  CHECK(format_diagnostic(*src, r.error->loc, "error", r.error->message) ==
        "a.hum:2:9: error: expected 'TO' after the message of SEND\n\tSEND x y\n\t       ^\n");
}

TEST_CASE("format_diagnostic: a long line is shown as a window around the column") {
  const std::string line = std::string(100000, 'x') + " oops " + std::string(100000, 'y');
  humus::ast::Source src{"big.hum", line + "\n"};
  const std::string d = format_diagnostic(src, {1, 100002}, "error", "e");
  CHECK(d.size() < 600);
  CHECK(d == "big.hum:1:100002: error: e\n..." + std::string(119, 'x') + " oops " + std::string(115, 'y') + "...\n" +
                 std::string(3 + 120, ' ') + "^\n");
  // Near the start: no leading cut.
  const std::string s = format_diagnostic(src, {1, 3}, "error", "e");
  CHECK(s == "big.hum:1:3: error: e\n" + std::string(240, 'x') + "...\n  ^\n");
}
