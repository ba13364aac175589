// Lent arguments: a function holding a list borrowed (borrow_plan.hpp)
// passes it, or a part of it, to a function that borrows it too, without a
// count.
//
//   DEF valid(board) AS CASE board OF
//     (q, rest) : IF $safe(q, rest, 1) = TRUE valid(rest) ELSE FALSE ...
//
// `rest` is borrowed in `valid`; copied into the call's argument it was
// counted, and `safe`, which borrows that parameter, kept the count in its
// anchor and released it at its end: two locked instructions a call, on a
// list the caller's own anchor holds alive all the while. The copy becomes
// MOVEL (no count) and the call CALLL, naming the lent argument. At run
// time a callee whose value code begins with a BORROW of that parameter
// is entered past it, anchored on nothing; any other callee, or a push
// that could fail, gets the argument counted first, as a CALL's. Only
// copies, moves and constants may come between MOVEL and CALLL, and no
// jump may land there: nothing can fail while the argument is uncounted.
#pragma once

#include "interpreter/engine/proto.hpp"

namespace humus::compile {

// Runs after plan_moves and plan_drops, before the fusing of instructions.
void plan_lending(engine::Proto& p);

}  // namespace humus::compile
