// Syntax errors: message, location and the `incomplete` flag.
#include <doctest/doctest.h>

#include <fmt/format.h>

#include "ast_dump.hpp"

namespace {

// "L:C: message" (+ " [incomplete]") for an input that must not parse.
std::string error(std::string text) {
  auto r = humus::test::parse(std::move(text));
  if (!r.error) return "parsed: " + humus::test::dump(*r.program);
  return fmt::format("{}:{}: {}{}", r.error->loc.line, r.error->loc.column, r.error->message,
                     r.error->incomplete ? " [incomplete]" : "");
}

}  // namespace

TEST_CASE("errors: unclosed brackets name where they were opened") {
  CHECK(error("SEND x TO y\nBECOME [\n  SEND 1 TO z\n") == "4:1: expected ']' to close the block opened at 2:8 [incomplete]");
  CHECK(error("f(1, 2") == "1:7: expected ')' to close the '(' opened at 1:2 [incomplete]");
  CHECK(error("(1, 2") == "1:6: expected ')' to close the '(' opened at 1:1 [incomplete]");
  CHECK(error("f(1 2)") == "1:5: expected ')' to close the '(' opened at 1:2");
  CHECK(error("[ (a ]") == "1:6: expected ')' to close the '(' opened at 1:3");
  CHECK(error("\\(a, b.x") == "1:7: expected ')' to close the '(' opened at 1:2");
  CHECK(error("LET f(x = 1") == "1:9: expected ')' to close the parameter list opened at 1:6");
  // a CASE without END is reported where the CASE began
  CHECK(error("CASE x OF\n  1 : a\n") ==
        "1:1: this CASE has no 'END' (expected at 3:1, found end of input) [incomplete]");
  CHECK(error("[ CASE x OF 1 : a ]") == "1:3: this CASE has no 'END' (expected at 1:19, found ']')");
  CHECK(error("DEF f(x) AS CASE x OF\n  1 : a\ng(2)\n") ==
        "1:13: this CASE has no 'END' (expected at 3:1, found 'g', and a call cannot be a CASE pattern)");
  CHECK(error("CASE x OF\n  1 : a\n  g(2) : b\nEND") ==
        "3:3: a call cannot be used as a pattern: write '$g(...)' to match the value the call returns");
  CHECK(error("x # comment\n[ # comment\n") == "3:1: expected ']' to close the block opened at 2:1 [incomplete]");
}

TEST_CASE("errors: missing keywords and punctuation") {
  CHECK(error("SEND x y") == "1:8: expected 'TO' after the message of SEND");
  CHECK(error("SEND x") == "1:7: expected 'TO' after the message of SEND [incomplete]");
  CHECK(error("SEND x TO") == "1:10: expected the target actor (an expression) after 'TO' [incomplete]");
  CHECK(error("SEND TO y") == "1:6: expected the message (an expression) after 'SEND'");
  CHECK(error("AFTER 10 x TO y") == "1:10: expected 'SEND' after the delay of AFTER");
  CHECK(error("CREATE x = y") == "1:10: expected 'WITH' after the actor's name in CREATE");
  CHECK(error("CREATE x WITH") == "1:14: expected a behavior expression after 'WITH' [incomplete]");
  CHECK(error("CREATE (x) WITH y") == "1:8: expected the new actor's name after 'CREATE'");
  CHECK(error("DEF f(x) = x") == "1:10: expected 'AS' after the parameter list of DEF");
  CHECK(error("DEF x = 1") == "1:7: expected 'AS' after the pattern of DEF");
  CHECK(error("DEF ]") == "1:5: expected a name or a pattern after 'DEF'");
  CHECK(error("DEF x AS") == "1:9: expected an expression after 'AS' [incomplete]");
  CHECK(error("x(LET y = 1)") == "1:12: expected 'IN' after the equation of the LET opened at 1:3");
  CHECK(error("LET x 1") == "1:7: expected '=' after the pattern of the equation");
  CHECK(error("LET f(x) x") == "1:10: expected '=' after the parameter list of the function");
  CHECK(error("LET f(x) =") == "1:11: expected an expression after '=' (the body of the function) [incomplete]");
  CHECK(error("LET") == "1:4: expected an equation after 'LET', as in 'LET x = $value' or 'LET f(x) = ...' [incomplete]");
  CHECK(error("LET x = 1 IN") == "1:13: expected an expression after 'IN' [incomplete]");
  CHECK(error("\\x x") == "1:4: expected '.' after the parameter pattern of the function opened at 1:1");
  CHECK(error("λx x") == "1:5: expected '.' after the parameter pattern of the function opened at 1:1");
  CHECK(error("\\.x") == "1:2: expected the function's parameter pattern after '\\'");
  CHECK(error("\\x.") == "1:4: expected an expression after '.' (the body of the function) [incomplete]");
  CHECK(error("CASE x OF 1 a END") ==
        "1:13: expected ':' after the pattern of an alternative of the CASE opened at 1:1 (or 'END', if the CASE ends "
        "here)");
  CHECK(error("CASE x OF 1 : END") == "1:15: expected an expression after ':' in an alternative of the CASE opened at 1:1");
  CHECK(error("CASE x 1 : a END") == "1:8: expected 'OF' after the subject of the CASE opened at 1:1");
  CHECK(error("CASE OF END") == "1:6: expected an expression after 'CASE'");
  CHECK(error("IF x") == "1:5: expected '=' after the pattern of the equation [incomplete]");
  CHECK(error("IF $x = 1") == "1:10: expected an expression after the condition of the IF opened at 1:1 [incomplete]");
  CHECK(error("IF $x = 1 a ELIF") == "1:17: expected an equation after 'ELIF', as in 'ELIF $x = 0 ...' [incomplete]");
  CHECK(error("IF $x = 1 a ELSE") == "1:17: expected an expression after 'ELSE' [incomplete]");
  CHECK(error("IF ] a") == "1:4: expected an equation after 'IF', as in 'IF $x = 0 ...'");
  CHECK(error("BECOME") == "1:7: expected an expression after 'BECOME' [incomplete]");
  CHECK(error("[ BECOME ]") == "1:10: expected an expression after 'BECOME'");
  CHECK(error("THROW )") == "1:7: expected an expression after 'THROW'");
  CHECK(error("IMPORT list") == "1:8: expected the module's name as a string after 'IMPORT', as in IMPORT \"list\"");
  CHECK(error("NEW ]") == "1:5: expected a behavior after 'NEW'");
  CHECK(error("1, ]") == "1:4: expected an expression after ','");
  CHECK(error("f(]") == "1:3: expected ')' to close the '(' opened at 1:2");
  CHECK(error("( ]") == "1:3: expected an expression after '('");
  CHECK(error("\\(a, ).x") == "1:6: expected a pattern after ','");
  CHECK(error("\\( ].x") == "1:4: expected a pattern after '('");
  CHECK(error("\\$ ].x") == "1:4: expected a term after '$', as in '$x' or '$f(y)'");
  CHECK(error("LET f( ) = 1 LET g(]) = 2") == "1:20: expected a parameter pattern after '('");
}

TEST_CASE("errors: patterns") {
  CHECK(error("LET x = add(1, 2)") == "1:9: a call cannot be used as a pattern: write '$add(...)' to match the value the call returns");
  CHECK(error("CASE m OF f(x) : 1 END") == "1:11: a call cannot be used as a pattern: write '$f(...)' to match the value the call returns");
  CHECK(error("LET x = NOW") ==
        "1:9: expected a pattern after '=' (to use the value of an expression, write '$' before it: $(...))");
  CHECK(error("LET x = ") ==
        "1:9: expected a pattern after '=' (to use the value of an expression, write '$' before it: $(...)) "
        "[incomplete]");
}

TEST_CASE("errors: keywords used as names") {
  CHECK(error("LET IF = 1") == "1:5: 'IF' is a keyword and cannot be used as a name");
  CHECK(error("LET x = END") == "1:9: 'END' is a keyword and cannot be used as a name");
  CHECK(error("CREATE NEW WITH x") == "1:8: 'NEW' is a keyword and cannot be used as a name");
  CHECK(error("CREATE SELF WITH x") == "1:8: 'SELF' is a keyword and cannot be used as a name");
  CHECK(error("DEF OF(x) AS x") == "1:5: 'OF' is a keyword and cannot be used as a name");
  CHECK(error("\\END.x") == "1:2: 'END' is a keyword and cannot be used as a name");
  CHECK(error("\\(a, IN).x") == "1:6: 'IN' is a keyword and cannot be used as a name");
  CHECK(error("LET f(AS) = 1") == "1:7: 'AS' is a keyword and cannot be used as a name");
}

TEST_CASE("errors: tokens") {
  CHECK(error("2#102") == "1:5: digit '2' is not valid in radix 2");
  CHECK(error("-16#FG") == "1:6: digit 'G' is not valid in radix 16");
  CHECK(error("x\n  8#9") == "2:5: digit '9' is not valid in radix 8");
  CHECK(error("1#0") == "1:1: radix 1 is not between 2 and 36");
  CHECK(error("37#1") == "1:1: radix 37 is not between 2 and 36");
  CHECK(error("-99999999999999999999#1") == "1:2: radix 99999999999999999999 is not between 2 and 36");
  CHECK(error("16#") == "1:4: expected the digits of the number after '#' [incomplete]");
  CHECK(error("16#)") == "1:4: expected the digits of the number after '#'");
  CHECK(error("12abc") == "1:3: unexpected 'abc' directly after a number");
  CHECK(error("\"abc") == "1:5: unterminated string (opened at 1:1) [incomplete]");
  CHECK(error("x \"abc\ndef\n") == "3:1: unterminated string (opened at 1:3) [incomplete]");
  CHECK(error("\"a\\qb\"") == "1:4: unknown escape sequence '\\q' (the escapes are \\n \\t \\r \\b \\' \\\" \\\\)");
  CHECK(error("'\\λ'") == "1:3: unknown escape sequence '\\λ' (the escapes are \\n \\t \\r \\b \\' \\\" \\\\)");
  CHECK(error("\"a\\") == "1:4: unterminated escape sequence at the end of the input [incomplete]");
  CHECK(error("''") == "1:2: empty character literal: write one character between the quotes, as in 'a'");
  CHECK(error("'ab'") == "1:3: expected \"'\" to close the character literal opened at 1:1: it holds one character");
  CHECK(error("'a") == "1:3: expected \"'\" to close the character literal opened at 1:1: it holds one character [incomplete]");
  CHECK(error("'\n'") == "1:2: unterminated character literal (opened at 1:1)");
  CHECK(error("'") == "1:2: unterminated character literal (opened at 1:1) [incomplete]");
  CHECK(error("#(") == "1:2: expected a name after '#' (a comment needs a space after '#')");
  CHECK(error("x;") == "1:2: ';' is reserved and not used in Humus");
  CHECK(error("[ SEND 1 TO x; ]") == "1:14: ';' is reserved and not used in Humus");
  CHECK(error("SEND _ TO x") == "1:6: '_' can only be used in a pattern");
  CHECK(error("f(_)") == "1:3: '_' can only be used in a pattern");
  CHECK(error("_") == "1:1: '_' can only be used in a pattern");
  CHECK(error("x\x01") == "1:2: unexpected character 0x01");
}

TEST_CASE("errors: stray tokens and trailing garbage") {
  CHECK(error("SEND x TO y ]") == "1:13: unexpected ']'");
  CHECK(error("[ x ] )") == "1:7: unexpected ')'");
  CHECK(error("x\n  IN y") == "2:3: unexpected 'IN'");
  CHECK(error("x . y") == "1:3: unexpected '.'");
  CHECK(error("END") == "1:1: unexpected 'END'");
  CHECK(error("x = 1") == "1:3: unexpected '='");
  CHECK(error("x : 1") == "1:3: unexpected ':'");
  CHECK(error("CASE x OF END, 1") == "1:14: unexpected ','");
}

TEST_CASE("errors: invalid UTF-8") {
  CHECK(error("x \xFF y") == "1:3: invalid UTF-8 byte 0xFF");
  CHECK(error("\"ok\"\n\"\xC3\x28\"") == "2:2: invalid UTF-8 byte 0xC3");
  CHECK(error("\xC0\xAF") == "1:1: invalid UTF-8 byte 0xC0");            // overlong
  CHECK(error("a\xED\xA0\x80") == "1:3: invalid UTF-8 byte 0xA0");       // surrogate
  CHECK(error("x \xE2\x82") == "1:3: invalid UTF-8 byte 0xE2");          // cut short
  CHECK(error("\xF4\x90\x80\x80") == "1:2: invalid UTF-8 byte 0x90");    // above U+10FFFF
}
