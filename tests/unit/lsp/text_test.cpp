// Positions in a document: LSP's UTF-16 (or UTF-8) units against the AST's
// byte columns, and incremental edits.
#include <doctest/doctest.h>

#include "interpreter/lsp/text.hpp"

using humus::lsp::Encoding;
using humus::lsp::Position;
using humus::lsp::Text;

TEST_CASE("UTF-16 units: one for a BMP character, two for one beyond it") {
  CHECK(humus::lsp::units("abc", Encoding::Utf16) == 3);
  CHECK(humus::lsp::units("é", Encoding::Utf16) == 1);
  CHECK(humus::lsp::units("€", Encoding::Utf16) == 1);
  CHECK(humus::lsp::units("😀", Encoding::Utf16) == 2);
  CHECK(humus::lsp::units("😀", Encoding::Utf8) == 4);
  CHECK(humus::lsp::units("\xF0\x9F", Encoding::Utf16) == 1);  // a cut sequence counts as one
}

TEST_CASE("AST locations and LSP positions convert both ways") {
  Text t("ab\r\nxé😀y\nlast");
  CHECK(t.line_count() == 3);
  CHECK(t.line(0) == "ab");  // without \r
  CHECK(t.line(1) == "xé😀y");
  CHECK(t.line(7).empty());
  // 'y' is byte column 8 (x 1, é 2, 😀 4): UTF-16 character 4, UTF-8 character 7.
  CHECK(t.position(2, 8, Encoding::Utf16) == Position{1, 4});
  CHECK(t.position(2, 8, Encoding::Utf8) == Position{1, 7});
  CHECK(t.offset({1, 4}, Encoding::Utf16) == 4 + 7);
  CHECK(t.offset({1, 7}, Encoding::Utf8) == 4 + 7);
  CHECK(t.byte_offset(2, 8) == 4 + 7);
  CHECK(t.position_of_offset(4 + 7, Encoding::Utf16) == Position{1, 4});
  // Past the end of a line or of the text: clamped, as LSP asks.
  CHECK(t.offset({0, 99}, Encoding::Utf16) == 2);
  CHECK(t.offset({9, 0}, Encoding::Utf16) == t.str().size());
  CHECK(t.byte_offset(1, 99) == 2);
  // Inside a surrogate pair or a UTF-8 sequence: the character's start.
  CHECK(t.offset({1, 3}, Encoding::Utf16) == 4 + 3);
  CHECK(t.offset({1, 4}, Encoding::Utf8) == 4 + 3);
  // An error just past a line's end stays after its text.
  CHECK(t.position(3, 5, Encoding::Utf16) == Position{2, 4});
  CHECK(t.position(3, 7, Encoding::Utf16) == Position{2, 6});
}

TEST_CASE("edits replace byte ranges and keep the lines right") {
  Text t("one\ntwo\n");
  t.replace(t.offset({1, 0}, Encoding::Utf16), t.offset({1, 3}, Encoding::Utf16), "2\nthree");
  CHECK(t.str() == "one\n2\nthree\n");
  CHECK(t.line_count() == 4);
  CHECK(t.line(2) == "three");
  t.replace(0, 999, "");
  CHECK(t.str().empty());
  CHECK(t.line_count() == 1);
}
