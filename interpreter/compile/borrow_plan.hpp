// Borrowed parameters: a function whose value code walks a list it was
// given in a loop (it calls itself in a tail), only looking at its parts,
// holds those parts without counting them (the Perceus / Lean 4 idea,
// carried into the parts of the value).
//
//   DEF safe(q, board, d) AS CASE board OF
//     (p, rest) : IF $q = $p FALSE ... ELSE safe(q, rest, add(d, 1))
//     _ : TRUE
//   END
//
// Counted, each turn of `safe` counts `rest` and lets go of the pair it
// came from: two locked instructions a turn, and on a board that many
// boards share, both write to a cache line the other cores read. Borrowed,
// the frame keeps its caller's one count of `board` in an anchor register
// (BORROW, at the value entry; calls of itself start past it, at
// Proto::loop_entry) and takes the board apart with UNPAIRJB, which writes
// the parts uncounted. The ends release the anchor and empty the borrowed
// registers without releasing them (RETB, RETKB). BORROW first releases
// what the other borrowed registers hold: a frame begins over its caller's
// registers above the call's arguments, and those may still hold counted
// values, which the raw writes would otherwise lose.
//
// A register is borrowed only when every value it can hold in the value
// code is a part of a borrowed one, and nothing hands it on as counted: it
// is read only by instructions that look at it or copy it (a copy is
// counted), and passed on only in place to a call of the function itself.
// A parameter fails the test with everything taken from it, and stays
// counted. A part left in a register that a callee's frame covers (one at
// or above a CALL's R(a)) is struck too, and a part copied into a call's
// argument is counted. Anything the VM's other paths need to
// know (a tail call of another function, a failure's unwinding, a packed
// value taken apart into the `keep` register) is in engine/vm.cpp and
// engine/calls.cpp, keyed on Proto::borrowed.
#pragma once

#include "interpreter/engine/proto.hpp"

namespace humus::compile {

// Runs first on a finished Proto (before plan_moves): may insert BORROWs at
// the value entry, and sets loop_entry in any case.
void plan_borrows(engine::Proto& p);

}  // namespace humus::compile
