// The Humus parser: source text in, ast::Program or one Diagnostic out.
//
// parse_program runs the PEGTL grammar of grammar.hpp to a parse tree, one
// top-level statement at a time, and converts each statement's tree to the
// ast:: structures in a second pass, so no AST is built by actions that
// might be undone by backtracking.  Before parsing, the
// text is checked to be valid UTF-8.  The first syntax error stops the parse;
// its message says what was expected and, for brackets and block keywords,
// where the construct was opened.  An error at the end of the input (an
// unclosed bracket, string or CASE...) is marked `incomplete`, which the REPL
// takes as a request for another line.
//
// Nesting (brackets, blocks, functions, LET/IF/CASE, NEW, '$', chained calls)
// is limited to max_nesting_depth levels so that no input can overflow the
// C++ stack of the parser, the tree conversion or later recursive passes;
// flat sequences (tuples, strings, statements) are unlimited.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "grammar/ast.hpp"

namespace humus::parse {

struct Diagnostic {
  ast::Loc loc;             // 1-based line/column of the error
  std::string message;      // e.g. "expected ']' to close the block opened at 12:5"
  bool incomplete = false;  // the error is at the end of the input: more text may complete it
};

struct ParseResult {
  std::optional<ast::Program> program;  // set on success
  std::optional<Diagnostic> error;      // set on failure
};

// Deeper nesting than this is the error "nesting too deep (more than N levels)".
// Each level costs about 0.4-0.75 KB of stack in an optimized build but
// 4-14 KB in an AddressSanitizer build (PEGTL's many small template frames
// are no longer inlined), so 200 levels keep the parse under 4 MB of stack
// in every build, half the default 8 MB main-thread stack
// (tests/unit/grammar/limits_test.cpp measures it). Hand-written code rarely
// nests beyond 15 (every bracket, block, function, LET/IF/CASE, NEW, '$' and
// chained call counts one); the headroom is for generated code.
inline constexpr std::size_t max_nesting_depth = 200;

ParseResult parse_program(ast::SourcePtr source);
// The same, handing each top-level statement to `each` as soon as it is
// parsed (in order) instead of keeping it in the program: a caller that
// compiles and frees each one never holds the whole tree. On a syntax error
// the statements before it have been handed over already.
ParseResult parse_program_each(ast::SourcePtr source, const std::function<void(ast::StmtPtr)>& each);

// A place where a top-level statement starts, as an earlier parse of the
// same text before it found it: its byte offset and position.
struct Resume {
  std::size_t byte = 0;
  ast::Loc loc{1, 1};
};
// The same from `at` (the text's start when none), for the language
// server's re-parse of an edited stretch: `each` also gets the statement's
// first byte and the byte where the next one starts (past the blanks and
// comments after this one), and returns false to stop there, with success.
ParseResult parse_statements_from(ast::SourcePtr source, std::optional<Resume> at,
                                  const std::function<bool(ast::StmtPtr, std::size_t start, std::size_t next)>& each);

}  // namespace humus::parse
