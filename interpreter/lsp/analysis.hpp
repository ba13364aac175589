// One look at a document, as the editor has it: its diagnostics (syntax and
// compile errors exactly as `humus --check` gives them, IMPORTs that cannot
// be found, names defined nowhere) and what each name in it refers to.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/lsp/modules.hpp"
#include "interpreter/lsp/outline.hpp"

namespace humus::lsp {

struct Diagnostic {
  enum class Severity { Error = 1, Warning = 2 };  // LSP's numbers
  ast::Loc loc;                                    // 1-based; line 0: no position (shown at the start)
  uint32_t length = 0;                             // bytes from loc: 0 = the token there
  Severity severity = Severity::Error;
  std::string message;
};

// The outline pass: what requests need (hover, definition, symbols,
// completion), and the diagnostics found on the way (a syntax error, the
// IMPORTs that cannot be found or do not parse).
struct Analysis {
  ast::SourcePtr source;
  bool parsed = false;
  Outline outline;  // empty when the document does not parse
  std::vector<Diagnostic> diagnostics;
  // The prelude first, then every module imported, transitively.
  std::vector<std::shared_ptr<const Module>> modules;
  // The module each IMPORT of the document names (null when not found),
  // parallel to outline.imports.
  std::vector<std::shared_ptr<const Module>> imported;
  // Whether every module was found and read: only then are names judged.
  bool complete = false;
};

// One pass over the document: parsed statement by statement (the whole
// syntax tree never exists at once), outlined (the top level only, unless
// `every_name`: see Outline::every_name), its modules found.
Analysis outline_document(ast::SourcePtr source, const std::string& folder, Modules& modules, bool every_name = false);

// The outline of top-level statement `stmt` of an analysis that parsed,
// with every name written in it and its locals, numbered as in the whole
// document: parsed again from the analysis's text.
Outline statement_outline(const Analysis& a, size_t stmt);
// The top-level statement that byte `byte` of the analysis's text is in or
// after (the last that starts at or before it), if any.
std::optional<size_t> statement_at_byte(const Outline& o, size_t byte);
// The line and byte column of byte `byte` of `text`.
ast::Loc position_of(std::string_view text, size_t byte);
// Its second half: the modules of a parsed document (the prelude, what it
// imports), found again, and the diagnostics of the IMPORTs.
void find_modules(Analysis& a, const std::string& folder, Modules& modules);

// How a text differs from the one an analysis was made of: the bytes both
// begin with, and the bytes both end with (an editor's edits since, merged;
// the default: the same text).
struct Edited {
  size_t same_prefix = SIZE_MAX;
  size_t same_suffix = SIZE_MAX;
};

// Brings `a` (an outline pass over a text that parsed, with its statements'
// bytes) up to `source`, the text after `edited`, in place: only the
// statements from the one before the edit up to the first that starts where
// an old one did (past the edit) are parsed again, and the rest is shifted.
// Updated: `a` is the new text's. SyntaxError: the new text does not parse,
// `*error` says why, and `a` is left as it was. Unable: `a` is left as it
// was, and the new text needs outline_document (an IMPORT among the
// statements parsed again, whose modules may change; an outline without
// its statements' bytes).
// Its modules are found again (a file may have changed on disk).
enum class Reoutline { Updated, SyntaxError, Unable };
Reoutline reoutline(Analysis& a, ast::SourcePtr source, Edited edited, const std::string& folder, Modules& modules,
                    Diagnostic* error);

// What the check needs besides the document: names the modules define.
struct CheckInput {
  ast::SourcePtr source;
  bool judge_names = false;        // Analysis::complete
  std::vector<std::string> known;  // the modules' globals
};
CheckInput check_input(const Analysis& a);

// The check, as `humus --check` makes it: compile errors and warnings, and
// the names defined nowhere (a second parse, compiled statement by
// statement). Reads nothing but `in`: it may run on another thread.
std::vector<Diagnostic> check_document(const CheckInput& in);

// Both passes, the check's diagnostics first (tests, and tools that want
// one call). `folder` is where relative IMPORTs start ("" for a document
// with no file).
Analysis analyze(ast::SourcePtr source, const std::string& folder, Modules& modules);

// Where a global name is defined: the last definition in the document, else
// in the modules (the last to load wins, as at run time). `module` is null
// for the document itself.
struct GlobalDefinition {
  const Module* module = nullptr;
  const Definition* definition = nullptr;
};
std::optional<GlobalDefinition> find_global(const Analysis& a, const std::string& name);

}  // namespace humus::lsp
