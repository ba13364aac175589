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
// until that set is stable. (A statement's call of itself, TAILSELFST,
// releases what it leaves first, so the statement entry starts with the
// parameters alone.)
//
// That is one of two plans. In the other, such a call releases what it
// leaves (TAILCALLD: it runs its DROPS word on itself too), so the entry
// starts with only its parameters and every end releases less. Which is
// cheaper depends on how often the calls run against the ends: a loop
// (`count(rest, add(n, 1))`) calls itself many times per end, so it keeps
// what it left for the next turn to overwrite; a function whose turns make
// calls of their own (an interpreter's `eval`) ends about as often as it
// calls itself. So the second plan is taken when the function makes a
// non-tail call and it releases fewer registers over all its ends and tail
// calls, counting each once.
//
// Over-approximating is always safe (releasing an empty register does
// nothing); missing a register would leak its value, which checked builds
// catch (engine/frames.hpp, check_empty_stack).
#include "interpreter/compile/drop_plan.hpp"

#include <map>

#include "interpreter/compile/reg_effects.hpp"

namespace humus::compile {

using engine::drop_field;
using engine::ends_frame;
using engine::Instr;
using engine::kDropAll;
using engine::kDropMask;
using engine::Op;
using engine::Proto;

namespace {

class Planner {
 public:
  explicit Planner(Proto& p) : p_(p) {}

  void run() {
    // The value entry's code runs from its entry to the next entry's (each
    // entry's code is one block).
    const uint32_t value_end = p_.value_code_end();
    bool calls = false, tail_calls = false;
    for (uint32_t i = 0; i < p_.code.size(); ++i) {
      reg_effects(p_, i, e_);
      for (uint32_t j : e_.jumps)
        if (j <= i) backward_ = true;  // never made by the compiler: plan nothing
      if (i >= p_.entry_value && i < value_end) {
        calls = calls || p_.code[i].op == Op::CALL;
        tail_calls = tail_calls || p_.code[i].op == Op::TAILCALL;
      }
    }
    for (;;) {  // restart_ only grows
      const RegSet before = restart_;
      pass();
      if (restart_ == before) break;
    }
    // A function with borrowed registers keeps them over its own tail
    // calls (TAILCALLD would release them, and its anchors).
    if (backward_ || !calls || !tail_calls || restart_ == RegSet() || p_.borrowed) return;
    const size_t keep_cost = cost_;
    const std::vector<Instr> kept = p_.code;
    self_drops_ = true;
    restart_ = RegSet();
    pass();
    if (cost_ >= keep_cost) {
      p_.code = kept;
      return;
    }
    for (Instr& in : p_.code)
      if (in.op == Op::TAILCALL) in.op = Op::TAILCALLD;
  }

 private:
  void pass() {
    pending_.clear();
    live_ = false;
    cost_ = 0;
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
  // How many registers a plan of `s` releases, R(0) .. R(from-1) aside.
  static size_t count(const RegSet& s, uint32_t from) {
    size_t n = 0;
    for (uint32_t r = from; r < s.end(); ++r) n += s.has(r);
    return n;
  }

  void step(uint32_t i) {
    Instr& in = p_.code[i];
    reg_effects(p_, i, e_);
    if (ends_frame(in.op)) {
      if (in.op == Op::RET || in.op == Op::RETB) cur_.remove(in.a);  // its value is moved out first
      if (in.op == Op::RETB || in.op == Op::RETKB)                   // they empty the borrowed registers first
        for (uint32_t r = 0; r < 16; ++r)
          if ((p_.borrowed >> r) & 1) cur_.remove(r);
      plan(cur_, *drop_field(in), in.x);
      if (live_) cost_ += count(cur_, 0);
    }
    if (e_.tail_call) {
      // What the tail call leaves in the frame once the callee and the
      // arguments are moved out (the callee stays when it is a global; an
      // argument passed in place leaves its register as it was).
      RegSet left = cur_;
      for (uint32_t k = 0; k < in.b; ++k)
        if (!((args_in_place(in) >> k) & 1)) left.remove(uint32_t(in.a) + 1 + k);
      if (!callee_is_global(in)) left.remove(in.a);
      Instr& drops = p_.code.at(i + 1);  // the DROPS word
      plan(left, drops.a, drops.x);
      if (live_) {
        // A call of another function releases what the DROPS word names
        // above its arguments; under self_drops_, one of itself too.
        const size_t n = count(left, in.b);
        cost_ += is_value_tail_call(in.op) && self_drops_ ? 2 * n : n;
        if (is_value_tail_call(in.op) && !self_drops_) restart_.merge(left);
      }
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
  bool self_drops_ = false;             // the second plan: TAILCALLD
  size_t cost_ = 0;                     // registers the plan releases, each end and tail call once
};

}  // namespace

void plan_drops(Proto& p) { Planner(p).run(); }

}  // namespace humus::compile
