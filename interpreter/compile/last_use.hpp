// After a Proto is compiled: each copy out of a register that is not read
// again (MOVE, PAIR, HOLE, SEND, UNPAIR) becomes a move (its x flag, opcodes.hpp).
#pragma once

#include "interpreter/engine/proto.hpp"

namespace humus::compile {

void plan_moves(engine::Proto& p);

}  // namespace humus::compile
