// Standard-library modules are parsed once per process. Every runtime
// imports the prelude, and a host or a test that makes many runtimes (the
// fuzzers make one per input) would otherwise parse it again each time: a
// copy of the kept tree costs a fraction of a parse (ast_copy.hpp).
#pragma once

#include "grammar/parser.hpp"

namespace humus::parse {

// parse_program, for a library source (Source::library): the first parse of
// a given name and text is kept, later ones are copies of it. A syntax
// error is not kept (it is reported once, as it is found).
ParseResult parse_library(ast::SourcePtr source);

}  // namespace humus::parse
