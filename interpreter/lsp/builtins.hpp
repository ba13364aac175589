// What the hover says about a built-in global (LANGUAGE.md section 9).
#pragma once

#include <string_view>

namespace humus::lsp {

// "add(a, b): the sum of two integers" and the like; null for a name that
// is not a built-in. A unit test checks every global a fresh runtime binds
// has one.
const char* builtin_doc(std::string_view name);

}  // namespace humus::lsp
