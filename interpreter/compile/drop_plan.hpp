// The drop plan: after a Proto is compiled, each instruction that ends a
// frame (RET, END, ...) or reuses it (a tail call's DROPS word) is given
// the registers that may still hold a value there (as a set, or as a bound
// when they reach past R(15)), so the VM releases those and no others
// (proto.hpp, kDropMask).
#pragma once

#include "interpreter/engine/proto.hpp"

namespace humus::compile {

void plan_drops(engine::Proto& p);

}  // namespace humus::compile
