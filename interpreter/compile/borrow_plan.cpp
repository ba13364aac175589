// Which parameters a function's value code borrows (borrow_plan.hpp).
//
// The test is a fixpoint over a set of registers, all in R(0) .. R(15) so
// that a 16-bit mask names them: start from the parameters the value code
// takes apart, add every register an UNPAIR of a member writes, and strike
// out each register some instruction uses in a way a borrowed value cannot
// be used; striking one out strikes out the registers its value came from.
// What is left is borrowed.
#include "interpreter/compile/borrow_plan.hpp"

#include "interpreter/compile/reg_effects.hpp"

namespace humus::compile {

using engine::Instr;
using engine::Op;
using engine::Proto;

namespace {

// A pattern's test and taking apart (the compiler emits no plain UNPAIR;
// one reading a borrowed register would strike it, as any other read).
bool is_unpair(Op op) { return op == Op::UNPAIRJ; }

// The registers an UNPAIRJ writes: the head's, then the tail's.
std::pair<uint32_t, uint32_t> unpair_targets(const Instr& in) {
  if (in.x & 2) return {in.b, in.a};  // in place: the tail replaces the pair
  return {in.b, uint32_t(in.b) + 1};
}

// Instructions that only look at a register, or copy it (counting the
// copy), and never empty it (a move is caught by RegEffects::empties).
// Not here: JNPAIR, JNTAG and TAGSWITCH, which replace a packed value in
// the register by its pairs.
bool looks_or_copies(Op op) {
  switch (op) {
    case Op::MOVE:
    case Op::PAIR:
    case Op::HOLE:
    case Op::SEND:
    case Op::JNWORD:
    case Op::JNEQ:
    case Op::JNEQK:
    case Op::JNLESS:
    case Op::JNLESSEQ:
    case Op::JNGREATER:
    case Op::JNGREATEREQ:
    case Op::JNSELF:
    case Op::ADD:
    case Op::SUB:
    case Op::MUL:
    case Op::DIV:
    case Op::MOD:
    case Op::LESS:
    case Op::LESSEQ:
    case Op::GREATER:
    case Op::GREATEREQ:
    case Op::COMPARE:
    case Op::EQ:
    case Op::ADDI:
    case Op::SUBI:
    case Op::DIVP:
    case Op::MODP:
      return true;
    default:
      return false;
  }
}

// Instructions whose move out of a register (x) can be a copy instead.
bool copies_instead(Op op) { return op == Op::MOVE || op == Op::PAIR || op == Op::HOLE || op == Op::SEND; }

bool pushes_frame(Op op) { return op == Op::CALL || op == Op::CALLST || op == Op::BECOMEF; }

class Borrower {
 public:
  explicit Borrower(Proto& p) : p_(p), end_(p.value_code_end()) {}

  void run() {
    if (p_.entry_value != 0 || p_.arity == 0 || p_.arity > 16) return;
    uint32_t candidates = 0;  // parameters the value code takes apart
    bool loops = false;       // it may call itself in a tail
    for (uint32_t i = 0; i < end_; ++i) {
      reg_effects(p_, i, e_);
      for (uint32_t j : e_.jumps)
        if (j <= i || j > end_) return;  // the other passes give up on these too
      const Instr& in = p_.code[i];
      if (is_unpair(in.op) && in.a < p_.arity) candidates |= 1u << in.a;
      loops = loops || is_value_tail_call(in.op);
    }
    // Borrowing pays in a loop: a walk that takes one pair apart and ends
    // counts as much borrowed (the anchor's release) as counted, and a
    // pair only it holds is freed at once either way.
    if (!loops) return;
    // One parameter is borrowed: the first that passes.
    for (uint32_t r = 0; r < p_.arity; ++r) {
      if (!has(candidates, r)) continue;
      roots_ = 1u << r;
      unfit_ = 0;
      while (roots_) {
        const uint32_t b = members();
        const uint32_t unfit = find_unfit(b) & b;
        if (!unfit) {
          rewrite(r, b);
          return;
        }
        unfit_ |= unfit;
        roots_ &= ~unfit_;
      }
    }
  }

 private:
  bool has(uint32_t set, uint32_t r) const { return r < 16 && ((set >> r) & 1); }

  // The roots and every register an UNPAIR of a member writes.
  uint32_t members() {
    uint32_t b = roots_;
    for (bool grew = true; grew;) {
      grew = false;
      for (uint32_t i = 0; i < end_; ++i) {
        const Instr& in = p_.code[i];
        if (!is_unpair(in.op) || !has(b, in.a)) continue;
        const auto [h, t] = unpair_targets(in);
        for (uint32_t r : {h, t})
          if (r < 16 && !has(unfit_, r) && !has(b, r)) {
            b |= 1u << r;
            grew = true;
          }
      }
    }
    return b;
  }

  // The members of `b` some instruction uses as a borrowed value cannot
  // be used.
  uint32_t find_unfit(uint32_t b) {
    uint32_t unfit = 0;
    auto strike = [&](uint32_t r) {
      if (has(b, r)) unfit |= 1u << r;
    };
    for (uint32_t r = 0; r < p_.arity; ++r)  // a parameter is counted unless anchored
      if (has(b, r) && !has(roots_, r)) strike(r);
    for (uint32_t i = 0; i < end_; ++i) {
      const Instr& in = p_.code[i];
      reg_effects(p_, i, e_);
      // What moves a borrowed value into the parameter, for a call of itself.
      const bool borrowed_move = in.op == Op::MOVE && has(b, in.b) && has(roots_, in.a);
      const bool borrowed_unpair = is_unpair(in.op) && has(b, in.a);
      if (borrowed_unpair) {
        const auto [h, t] = unpair_targets(in);
        if (!has(b, h) || !has(b, t)) strike(in.a);  // its parts would land in counted registers
      }
      for (uint32_t r : e_.writes)
        if (!borrowed_unpair && !borrowed_move) strike(r);
      for (uint32_t r : e_.empties)  // a move out of a borrowed register becomes a copy
        if (!borrowed_unpair && !borrowed_move && !copies_instead(in.op)) strike(r);
      if (in.op == Op::TAILCALL || in.op == Op::TAILCALLD) {
        if (!in.c) strike(in.a);  // the callee
        for (uint32_t k = 0; k < in.b; ++k) {
          const bool in_place = (in.x >> k) & 1;
          if (!in_place) {
            strike(uint32_t(in.a) + 1 + k);
            strike(k);  // a call of itself would write a counted value over it
          }
        }
        for (uint32_t r = 0; r < 16; ++r)  // below the arguments' window
          if (r >= in.a) strike(r);
      } else if (!borrowed_unpair && !looks_or_copies(in.op) && in.op != Op::RET) {  // RET: counted first
        for (uint32_t r : e_.reads) strike(r);
      }
      if (pushes_frame(in.op))  // the callee's frame begins at R(a+1), over the registers above
        for (uint32_t r = in.a; r < 16; ++r) strike(r);
    }
    return unfit;
  }

  // The anchor goes first in the value code; the code after it moves down
  // by one instruction.
  void rewrite(uint32_t root, uint32_t b) {
    for (uint32_t i = 0; i < end_; ++i) {
      Instr& in = p_.code[i];
      if (is_unpair(in.op) && has(b, in.a)) {
        in.op = Op::UNPAIRJB;
        in.x = uint8_t(in.x & 2);
      } else if (in.op == Op::MOVE && has(b, in.b) && in.a == root) {
        in.op = Op::MOVEB;
        in.x = 0;
      } else if ((in.op == Op::MOVE || in.op == Op::SEND) && has(b, in.op == Op::MOVE ? in.b : in.a)) {
        in.x = uint8_t(in.x & ~1);  // a copy: the register holds no count to give
      } else if (in.op == Op::PAIR) {
        if (has(b, in.b)) in.x = uint8_t(in.x & ~1);
        if (has(b, in.c)) in.x = uint8_t(in.x & ~2);
      } else if (in.op == Op::HOLE && in.b == 1 && has(b, in.a)) {
        in.x = 0;
      } else if (in.op == Op::RET) {
        in.op = Op::RETB;
        if (has(b, in.a)) in.x |= 1;  // a part of the list: counted before the anchor lets go
      } else if (in.op == Op::RETK) {
        in.op = Op::RETKB;
      }
    }
    p_.code.insert(p_.code.begin(), Instr{Op::BORROW, 0, 0, uint16_t(root), 0});
    const auto first_pos = p_.pos.front();
    p_.pos.insert(p_.pos.begin(), first_pos);
    for (uint32_t* e : {&p_.entry_stmt, &p_.entry_behavior})
      if (*e != Proto::kNoEntry) *e += 1;
    for (engine::TagSwitch& s : p_.switches) {  // their targets are absolute
      for (auto& c : s.cases) c.second += 1;
      for (uint32_t& t : s.dense) t += 1;
      s.otherwise += 1;
    }
    p_.loop_entry = 1;
    p_.borrowed = uint16_t(b);
  }

  Proto& p_;
  const uint32_t end_;
  RegEffects e_;
  uint32_t roots_ = 0;  // the parameter tried, until struck out
  uint32_t unfit_ = 0;  // registers struck out so far
};

}  // namespace

void plan_borrows(Proto& p) {
  p.loop_entry = p.entry_value;
  if (p.entry_value != Proto::kNoEntry) Borrower(p).run();
}

}  // namespace humus::compile
