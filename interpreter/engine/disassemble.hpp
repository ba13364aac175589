// A compiled Proto as text, one instruction a line: for `humus --dump-code`
// and for tests that check what the compiler makes of a construct.
#pragma once

#include <string>

#include "interpreter/engine/proto.hpp"

namespace humus::engine {

std::string disassemble(const Proto& p);
struct CompiledUnit;
// Every top-level statement of the unit, and every function and block
// value made in it (once each), in the order they are first reached.
std::string disassemble(const CompiledUnit& unit);
const char* op_name(Op op);

}  // namespace humus::engine
