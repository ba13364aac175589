// The compiler: AST -> compiled nodes, with scope resolution.
//
// Every variable is resolved here to a frame slot, a captured value of the
// running closure, the running function itself (recursion), a sibling in a
// recursive group, or a global slot; nothing is looked up by name at run
// time. Blocks are ordered by dataflow (dataflow.hpp). Errors are thrown as
// CompileError.
#pragma once

#include <memory>

#include "interpreter/compile/compile_error.hpp"
#include "interpreter/engine/program.hpp"
#include "runtime/runtime.hpp"

namespace humus::interp {

// Compiles a whole parsed program (all or nothing: throws on the first error).
// It frees each statement's syntax tree once compiled: `program` is used up.
std::unique_ptr<CompiledUnit> compile_program(ast::Program& program, rt::Runtime& rt, CodeArena& arena);

}  // namespace humus::interp
