// Deep copies of syntax trees. Compiling consumes a tree (the compiler
// frees each statement's nodes as it goes), so a tree kept for reuse (the
// parse cache, parse_cache.hpp) is copied for each use.
#pragma once

#include "grammar/ast.hpp"

namespace humus::ast {

// A copy of `p` whose statements point into `source` (same text).
Program copy(const Program& p, SourcePtr source);

}  // namespace humus::ast
