// Which registers each end of a frame releases (drop_plan.hpp).
//
// One forward pass over a Proto's code, tracking the set of registers that
// may hold a value: an entry starts with its parameters; an instruction adds
// the registers it writes and removes those it empties (reg_effects.hpp).
// Every jump goes forward, so when the pass reaches an instruction it has
// seen every way into it: the set there is the union of what flows in. The
// one way back is a call of the running function itself in a value tail
// (TAILCALL), which starts the value entry again without emptying the
// frame: what it leaves flows into that entry, and the pass runs again
// until that set is stable.
//
// Over-approximating is always safe (releasing an empty register does
// nothing); missing a register would leak its value, which checked builds
// catch (vm.cpp, check_empty_stack).
#include "interpreter/compile/drop_plan.hpp"

#include <map>

#include "interpreter/compile/reg_effects.hpp"

namespace humus::interp {

namespace {

class Planner {
 public:
  explicit Planner(Proto& p) : p_(p) {}

  void run() {
    for (uint32_t i = 0; i < p_.code.size(); ++i) {
      reg_effects(p_, i, e_);
      for (uint32_t j : e_.jumps)
        if (j <= i) backward_ = true;  // never made by the compiler: plan nothing
    }
    for (;;) {  // restart_ only grows
      const RegSet before = restart_;
      pass();
      if (restart_ == before) break;
    }
  }

 private:
  void pass() {
    pending_.clear();
    live_ = false;
    for (uint32_t i = 0; i < p_.code.size(); ++i) {
      if (i == p_.entry_value || i == p_.entry_stmt || i == p_.entry_behavior) {
        live_ = true;
        cur_ = i == p_.entry_value ? restart_ : RegSet();
        for (uint32_t r = 0; r < p_.arity; ++r) cur_.add(r);
      }
      if (auto it = pending_.find(i); it != pending_.end()) {
        if (live_)
          cur_.merge(it->second);
        else
          cur_ = std::move(it->second);
        live_ = true;
        pending_.erase(it);
      }
      step(i);
    }
  }

  // What an end or a tail call's DROPS word releases (proto.hpp): the set
  // itself when it lies in R(0) .. R(15), else a bound; every register when
  // the set is not known (code no way reaches, or a backward jump).
  void plan(const RegSet& s, uint16_t& field, uint8_t& x) const {
    x = uint8_t(x & ~kDropMask);
    if (backward_ || !live_) {
      field = uint16_t(std::min<uint32_t>(p_.nregs, kDropAll));
    } else if (s.end() <= 16) {
      field = s.low16();
      x |= kDropMask;
    } else {
      field = uint16_t(s.end());
    }
  }

  void step(uint32_t i) {
    Instr& in = p_.code[i];
    reg_effects(p_, i, e_);
    if (ends_frame(in.op)) {
      if (in.op == Op::RET) cur_.remove(in.a);  // its value is moved out first
      plan(cur_, *drop_field(in), in.x);
    }
    if (e_.tail_call) {
      // What the tail call leaves in the frame once the callee and the
      // arguments are moved out (the callee stays when it is a global; an
      // argument passed in place leaves its register as it was).
      RegSet left = cur_;
      for (uint32_t k = 0; k < in.b; ++k)
        if (!(in.op == Op::TAILCALL && ((in.x >> k) & 1))) left.remove(uint32_t(in.a) + 1 + k);
      if (!(in.op == Op::TAILCALL && in.c)) left.remove(in.a);
      Instr& drops = p_.code.at(i + 1);  // the DROPS word
      plan(left, drops.a, drops.x);
      if (in.op == Op::TAILCALL && live_) restart_.merge(left);
    }
    if (!live_) return;
    for (uint32_t j : e_.jumps) flow(j, cur_);  // a jump leaves the registers as they were
    for (uint32_t r : e_.empties) cur_.remove(r);
    for (uint32_t r : e_.writes) cur_.add(r);
    if (!e_.falls_through) live_ = false;
  }

  void flow(uint32_t to, const RegSet& s) {
    auto [it, fresh] = pending_.try_emplace(to, s);
    if (!fresh) it->second.merge(s);
  }

  Proto& p_;
  RegEffects e_;
  RegSet cur_;
  bool live_ = false;                   // some way reaches the instruction
  bool backward_ = false;               // a backward jump: every end releases every register
  std::map<uint32_t, RegSet> pending_;  // jump targets ahead, with what flows in
  RegSet restart_;                      // what restarts of the value entry leave
};

}  // namespace

void plan_drops(Proto& p) { Planner(p).run(); }

}  // namespace humus::interp
