// Lent arguments: a call that passes a copy of a value it goes on holding
// (`valid` passing `rest` to `safe`, and then walking `rest` itself) need
// not count the copy when the callee borrows that parameter
// (borrow_plan.hpp): the caller's register holds the value for as long as
// the call runs, so the callee's frame can borrow from it directly, with
// no anchor of its own. The count would cost two locked instructions per
// call (the copy's, and the callee's release of its anchor).
//
// The compiler cannot know the callee (a global can be bound anew), so the
// decision is split: here, the MOVEs that copy a call's arguments become
// MOVEL, which writes the word uncounted, and the CALL becomes CALLL,
// naming them. At the call (engine/vm.cpp), a callee that borrows one of
// them anchors on nothing and starts past its BORROW; every other lent
// argument is counted then, as CALL would have had it.
//
// An uncounted word in a caller's register is safe only while nothing
// between the MOVEL and the call can fail (the unwinding would release it
// as counted): the arguments are lent only across instructions that cannot
// fail (moves and loads), with no jump landing among them. CALLL itself
// counts them first on its slow paths (a safe point, a deep stack).
#pragma once

#include "interpreter/engine/proto.hpp"

namespace humus::compile {

// Runs on finished code after plan_drops (it needs the moves decided) and
// before fuse_instructions.
void plan_lends(engine::Proto& p);

}  // namespace humus::compile
