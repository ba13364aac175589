// The compiler: AST -> register code for the VM (engine/proto.hpp), with
// scope resolution.
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
#include "runtime/globals.hpp"

namespace humus::compile {

// Compiles a unit one top-level statement at a time, as the parser delivers
// them (so that a big script's syntax trees never all exist at once): add()
// throws CompileError on the first error; finish() gives the unit, with the
// warnings that needed every statement (a call above its DEF with the wrong
// number of arguments). With `keep_code` false it compiles for the
// diagnostics only: each statement's code is dropped once made, and the unit
// keeps its IMPORTs, names and warnings (humus --check, the language server).
class UnitCompiler {
 public:
  UnitCompiler(ast::SourcePtr source, rt::Globals& globals, engine::CodeArena& arena, bool keep_code = true);
  ~UnitCompiler();
  UnitCompiler(const UnitCompiler&) = delete;
  UnitCompiler& operator=(const UnitCompiler&) = delete;
  void add(const ast::Stmt& s);
  std::unique_ptr<engine::CompiledUnit> finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Compiles a whole parsed program (all or nothing: throws on the first error).
// It frees each statement's syntax tree once compiled: `program` is used up.
std::unique_ptr<engine::CompiledUnit> compile_program(ast::Program& program, rt::Globals& globals,
                                                      engine::CodeArena& arena);

}  // namespace humus::compile
