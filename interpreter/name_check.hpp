// Names read but defined nowhere, found before a run: one check, with the
// same messages, suggestions and severities, for every front end (the humus
// command, the REPL, the embedding API, the playground, the language server).
//
//   - A name that top-level code reads as it runs is an error: the program
//     would stop there for certain.
//   - A name only a body reads (a function's, a behavior's, a block's that
//     runs later) is a warning: that code may never run, and programs of the
//     reference implementations rely on it; if it does run, the runtime
//     error says the same, with a caret under the name.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/engine/program.hpp"

namespace humus::interp {

struct NameProblem {
  ast::Loc loc;
  uint32_t length;      // of the name, in bytes
  bool error;           // else a warning
  std::string message;  // "'prnitln' is not defined; did you mean 'println'?"
};

// The name check, and the compiler's warnings, each list at most this many
// problems; one more line counts the rest. A file of 100,000 misspelt names
// gets a screenful, not 100,000 (and the suggestions, which compare a name
// with every global, stay cheap).
inline constexpr size_t kMaxListedProblems = 100;

// The names `unit` reads that are not in `defined`, in source order, at
// most kMaxListedProblems of them and then, if more, one with no location
// that counts the rest (an error if any of them is). With `errors` false
// (input may still come that defines them: the REPL) every problem is a
// warning, and names top-level code reads are left to the runtime error.
std::vector<NameProblem> undefined_names(const engine::CompiledUnit& unit,
                                         const std::unordered_set<std::string>& defined, bool errors);

}  // namespace humus::interp
