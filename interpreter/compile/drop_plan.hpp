// The drop plan: after a Proto is compiled, each instruction that ends a
// frame (RET, END, ...) or reuses it (a tail call's DROPS word) is given
// a bound on the registers that may still hold a value there, so the VM
// releases those and no others (proto.hpp, kDropAll).
#pragma once

#include "interpreter/engine/proto.hpp"

namespace humus::interp {

void plan_drops(Proto& p);

}  // namespace humus::interp
