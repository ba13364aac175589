// Strings as Humus has them: lists of code points (LANGUAGE.md section 1),
// to and from UTF-8 text for the world outside (hosts, names on the wire).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/value.hpp"

namespace humus::rt {

void append_utf8(std::string& out, uint32_t code_point);
// A small integer that is a Unicode scalar value (not a surrogate).
bool is_code_point(const Value& v);
// The UTF-8 text of a string (a proper list of code points, NIL included);
// none for anything else.
std::optional<std::string> string_text(const Value& v);
// The string of UTF-8 text, packed (str.hpp); none when it is not valid
// UTF-8 (overlong forms and surrogates included).
std::optional<Value> text_string(std::string_view utf8);
// A symbol's name, or a string's text: how names are given (topics,
// published actors, groups). None for anything else.
std::optional<std::string> name_text(const Value& v);

}  // namespace humus::rt
