// The uFork way of running a script (`humus --whole-script-as-one-block`,
// Runtime::eval with ScriptMode::OneBlock): the whole script is one block.
// Its statements are ordered by dataflow, as a block's are (a forward
// reference to a later DEF works), its names are the block's own (so one
// name bound twice is an error), and it runs as one transaction (a THROW
// anywhere cancels every SEND). IMPORTs stay top-level statements and run
// first, in order, since a block cannot hold them.
#pragma once

#include "grammar/ast.hpp"

namespace humus::compile {

// The program with its statements (IMPORTs apart) moved into one block
// expression statement.
ast::Program as_one_block(ast::Program program);

}  // namespace humus::compile
