// After a Proto's registers are planned: pairs of instructions that run
// one after the other are done by one (a superinstruction), so the VM
// dispatches once instead of twice.
#pragma once

#include "interpreter/engine/proto.hpp"

namespace humus::compile {

void fuse_instructions(engine::Proto& p);

}  // namespace humus::compile
