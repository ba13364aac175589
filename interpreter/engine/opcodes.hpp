// The instruction set of the Humus VM, one line per instruction (an X-macro
// in the manner of Wren's wren_opcodes.h). R(x) is register x of the running
// frame, K(x) constant x of the running code, G(x) global x, F the running
// function or block value (its captures). A jump's target is a signed
// offset from the next instruction. Operands a, b, c are unsigned 16-bit; x is a
// small flag byte (see each line).
//
// The arithmetic and comparison instructions compute in place for small
// integers and call the built-in (or whatever the global of that name holds
// now) otherwise. The J* instructions jump when their test FAILS: each is
// the "else" of a pattern element or an IF equation.

// ---- loads and values
OP(MOVE)       // R(a) = R(b)                                   x: 1 = move (R(b) is left empty)
OP(MOVE2)      // R(a) = R(b), then R(a+1) = R(c), then past the next instruction (the MOVE
               //   it was fused from, compile/superinstructions.cpp)  x: 1 = move R(b), 2 = move R(c)
OP(MOVEL)      // R(a) = R(b) uncounted: R(b) is borrowed, R(a) an argument the CALLL after it
               //   lends (compile/lend_plan.hpp)
OP(MOVE2L)     // MOVE2 whose second copy is a MOVEL                 x: 1 = move R(b)
OP(LOADK)      // R(a) = K(b)
OP(GETCAP)     // R(a) = F.captures[b]
OP(GETGLOBAL)  // R(a) = G(b); error when unbound
OP(SETGLOBAL)  // G(b) = R(a)                                  (top level: DEF, LET, CREATE)
OP(SELFFN)     // R(a) = F, the running function itself
OP(SIBLING)    // R(a) = the member b of F's recursive group, made from F's captures
OP(SELF)       // R(a) = the actor whose behavior runs; error at top level
OP(NOW)        // R(a) = NOW
OP(CLOSURE)    // R(a) = a new closure: lambda plan b
OP(GROUP)      // R(a .. a+n-1) = the closures of group plan b (mutually recursive)
OP(BLOCK)      // R(a) = a new block value: block plan b
OP(PAIR)       // R(a) = (R(b), R(c))                          x: 1 = move R(b), 2 = move R(c)
OP(TUPLE)      // R(a) = (R(b), ..., R(b+c-1)), taking them over
OP(HOLE)       // (R(a), ..., R(a+b-1), _): the frame's value will be this tuple, its
               //   last part the value the frame returns (the tail call that
               //   follows); pending in the CallInfo (tail modulo cons)
               //   x: 1 = take R(a ..) over (else b = 1 and R(a) is copied)
OP(NEWACTOR)   // R(a) = a new actor, behavior to come (CREATE), named by the symbol K(b-1) (b = 0: no name)
OP(NEW)        // R(a) = a new actor with behavior R(b)
OP(SETBEH)     // actor R(a) gets behavior R(b) (CREATE ... WITH)

// ---- built-in functions, in place for small integers: R(a) = f(R(b), R(c))
//   x: 1 = K(c) instead of R(c)
OP(ADD)
OP(SUB)
OP(MUL)
OP(DIV)
OP(MOD)
OP(LESS)
OP(LESSEQ)
OP(GREATER)
OP(GREATEREQ)
OP(COMPARE)
OP(EQ)
OP(ADDI)  // R(a) = add(R(b), c - 32768)  (a small constant)
OP(SUBI)  // R(a) = sub(R(b), c - 32768)
OP(DIVP)  // R(a) = div(R(b), 2^c)  (a constant power of two: a shift)
OP(MODP)  // R(a) = mod(R(b), 2^c)  (a constant power of two: a mask)
// Fused with the test after it (compile/superinstructions.cpp): on small
// integers both, then past the test; otherwise the first alone.
OP(ADDJNEQ)     // ADD, then the JNEQ whose b is this a   (`IF $q = $add(p, d)`)
                //   x: kResultUnread = R(a) is not written when both are done
OP(SUBJNEQ)     // SUB, the same
OP(MODJNWORD)   // MOD, then the JNWORD whose a is this a (`IF $mod(n, d) = 0`)
OP(MODPJNWORD)  // MODP, the same

// ---- tests and jumps (jump to c when the test fails)
OP(JMP)          // jump to c
OP(JNWORD)       // unless R(a) is the one-word literal K(b)
OP(JNEQ)         // unless R(a) equals R(b)
OP(JNEQK)        // unless R(a) equals K(b) (a boxed literal: big integer, string)
OP(JNLESS)       // unless less(R(a), R(b)) = TRUE          x: 1 = K(b) instead of R(b)
OP(JNLESSEQ)     // unless less_equal(R(a), R(b)) = TRUE
OP(JNGREATER)    // unless greater(R(a), R(b)) = TRUE
OP(JNGREATEREQ)  // unless greater_equal(R(a), R(b)) = TRUE
OP(JNPAIR)       // unless R(a) is a pair
OP(JNTAG)        // unless R(a) is a pair whose head is the one-word literal K(b)
OP(JNSELF)       // unless R(a) is the actor whose behavior runs
OP(JNCODE)       // unless global G(a) holds a function of code inlined[b] (its body follows, inlined)
OP(TAGSWITCH)    // go to where switch b sends R(a)'s head word, or jump by c when R(a) is not a pair
OP(UNPAIR)       // R(b) = head of R(a), R(b+1) = its tail (R(a) is a pair; b may be a)
                 //   x: 1 = R(a) is not read again: it is emptied, its pair taken apart;
                 //   3 = the same, in place: R(b) = the head, R(a) = the tail
OP(UNPAIRJ)      // the same, jumping to c instead when R(a) is not a pair
OP(TAIL)         // R(b) = tail of R(a), a pair whose head is a tag already tested (JNTAG)
                 //   x: 1 = R(a) is not read again: it is emptied, its pair taken apart (b may be a)
OP(TAILUNPAIRJ)  // TAIL, then the UNPAIRJ b, b after it in the same dispatch when the tail is a
                 //   pair: (#tag, x, y) taken apart without counting (x, y) itself
OP(LETFAIL)      // "LET mismatch": the event fails
// Borrowed registers (compile/borrow_plan.cpp): a function that only walks a
// list it was given holds its parts without counting them; the frame's one
// count of the whole list is kept in the frame's CallInfo (its anchor).
OP(BORROW)        // the frame's anchor takes R(b)'s count: R(b) holds it borrowed from here on
OP(MOVEB)         // R(a) = R(b), both borrowed: the word alone, uncounted
OP(UNPAIRJB)      // UNPAIRJ of a borrowed pair: the parts written uncounted (borrowed too)
                  //   x: 2 = in place (R(b) = the head, R(a) = the tail)
OP(UNPAIRJBJNEQ)  // UNPAIRJB, then the JNEQ after it in the same dispatch (superinstructions.cpp)

// ---- calls: the callee is R(a), its b argument values R(a+1 .. a+b) (b = 1:
// one argument; b >= 2: f(x1, ..., xb), passed spread). For CALL and
// TAILCALL, c > 0 names the callee instead: global G(c-1).
OP(CALL)        // R(a) = the result
OP(CALLL)       // CALL whose argument x-1 is lent (MOVEL): a callee that borrows that
                //   parameter takes it uncounted, anchored on nothing; any other gets it counted
OP(TAILCALL)    // the result is this function's result (the frame is reused)
                //   x: argument i is this function's parameter i unchanged (bit i):
                //   its register R(a+1+i) was left empty
OP(TAILCALLD)   // TAILCALL that, when it calls the running function itself, also
                //   releases what its DROPS word names (drop_plan.cpp chooses it)
OP(TAILSELF)    // TAILCALL of a global with every argument in place, b the running
                //   function's arity (made after the passes): when the global holds
                //   the running function, straight to its next turn; else TAILCALL
OP(TAILSELFD)   // the same of TAILCALLD
OP(ADDISELF)    // ADDI, then the TAILSELF after it in the same dispatch (superinstructions.cpp)
OP(CALLST)      // run the callee's body as a statement          x: 1 = keep the frame's site
OP(TAILCALLST)  // the same, as this statement code's last word  x: 1 = keep the frame's site
OP(TAILSELFST)  // TAILCALLST of global G(c-1) with every argument in place (R(0 .. b-1)), b the
                //   running function's arity: when the global holds the running function,
                //   its DROPS word runs and its statement code starts again; else TAILCALLST
OP(DROPS)       // not run: the word after a tail call, a = how many registers it
                //   releases (a drop bound, proto.hpp)
OP(BECOMEF)     // BECOME of a behavior factory's call: the captures go pending and
                // the next two instructions (CALL, BECOME) are skipped; else fall through

// ---- ends: each releases the registers below its drop bound (proto.hpp),
// kept in the operand it does not use (c for RETK, else b)
OP(RET)        // return R(a)
OP(RETK)       // return K(b)
OP(RETB)       // RET in a function with borrowed registers: they are emptied first, uncounted
               //   x: 1 = R(a) is one of them (counted first)
OP(RETKB)      // RETK, the same
OP(END)        // the end of statement code
OP(EXEC)       // run R(a) as a statement: a block runs, anything else does nothing (-W reports it)
               //   x: 1 = report at the frame's site
OP(TAILEXEC)   // the same, as this statement code's last word
OP(BEHEXEC)    // the end of a behavior's body: R(a) is ? (unhandled), a block
               // (it runs), or an error
OP(UNHANDLED)  // the end of a behavior that did not take the message
OP(NOMATCH)    // a CASE statement matched no arm (x: 1 = an IF statement, alone in its
               //   block, took no branch): the message counts as unhandled (Context::no_match)

// ---- effects
OP(SEND)    // SEND R(a) TO R(b) (dropped when R(b) is no actor)  x: 1 = move R(a)
OP(AFTER)   // AFTER R(a) SEND R(b) TO R(c)
OP(BECOME)  // BECOME R(a)
OP(THROW)   // THROW R(a)
