// What each instruction does to its frame's registers (reg_effects.hpp),
// read off the VM's handlers (engine/vm.cpp) and opcodes.hpp.
#include "interpreter/compile/reg_effects.hpp"

namespace humus::compile {

using engine::CaptureSource;
using engine::Instr;
using engine::Op;
using engine::Proto;
using engine::TagSwitch;

namespace {

void range(std::vector<uint32_t>& out, uint32_t from, uint32_t n) {
  for (uint32_t r = from; r < from + n; ++r) out.push_back(r);
}

// The registers a closure, block or group plan captures from.
void sources(const std::vector<CaptureSource>& s, std::vector<uint32_t>& reads) {
  for (const auto& c : s)
    if (c.kind == CaptureSource::Kind::Reg) reads.push_back(c.index);
}

}  // namespace

void reg_effects(const Proto& p, uint32_t i, RegEffects& e) {
  e.clear();
  const Instr& in = p.code[i];
  const uint32_t a = in.a, b = in.b, c = in.c;
  switch (in.op) {
    case Op::MOVE:
      e.reads = {b};
      e.writes = {a};
      if ((in.x & 1) && b != a) e.empties = {b};
      break;
    case Op::MOVEL:
      e.reads = {b};
      e.writes = {a};
      break;
    case Op::MOVE2:  // made after the passes that read these effects; for completeness
    case Op::MOVE2L:
      e.reads = {b, c};
      e.writes = {a, a + 1};
      if ((in.x & 1) && b != a) e.empties.push_back(b);
      if ((in.x & 2) && c != a + 1) e.empties.push_back(c);
      e.jumps = {i + 2};
      e.falls_through = false;
      break;
    case Op::LOADK:
    case Op::GETCAP:
    case Op::GETGLOBAL:
    case Op::SELFFN:
    case Op::SIBLING:
    case Op::SELF:
    case Op::NOW:
    case Op::NEWACTOR:
      e.writes = {a};
      break;
    case Op::CLOSURE:
      sources(p.tables->closures[b].sources, e.reads);
      e.writes = {a};
      break;
    case Op::BLOCK:
      sources(p.tables->blocks[b].sources, e.reads);
      e.writes = {a};
      break;
    case Op::GROUP:
      sources(p.tables->groups[b].sources, e.reads);
      for (const auto& [code, reg] : p.tables->groups[b].members) e.writes.push_back(reg);
      break;
    case Op::SETGLOBAL:
      e.reads = {a};
      break;
    case Op::PAIR:
      e.reads = {b, c};
      if ((in.x & 1) && b != a) e.empties.push_back(b);
      if ((in.x & 2) && c != a) e.empties.push_back(c);
      e.writes = {a};
      break;
    case Op::TUPLE:  // takes its elements over
      range(e.reads, b, c);
      for (uint32_t r : e.reads)
        if (r != a) e.empties.push_back(r);
      e.writes = {a};
      break;
    case Op::HOLE:  // into the frame's CallInfo: taken over (x = 1), or copied
      range(e.reads, a, b);
      if (in.x & 1) e.empties = e.reads;
      break;
    case Op::NEW:
      e.reads = {b};
      e.writes = {a};
      break;
    case Op::SETBEH:
      e.reads = {a, b};
      break;
    case Op::ADD:
    case Op::SUB:
    case Op::ADDJNEQ:  // made after the passes; as ADD, then the JNEQ (which stays)
    case Op::SUBJNEQ:
    case Op::MUL:
    case Op::DIV:
    case Op::MOD:
    case Op::MODJNWORD:
    case Op::LESS:
    case Op::LESSEQ:
    case Op::GREATER:
    case Op::GREATEREQ:
    case Op::COMPARE:
    case Op::EQ:
      e.reads = {b};
      if (!(in.x & 1)) e.reads.push_back(c);
      e.writes = {a};
      break;
    case Op::ADDI:
    case Op::ADDISELF:  // made after the passes; as ADDI, then the TAILSELF (which stays)
    case Op::SUBI:
    case Op::DIVP:
    case Op::MODP:
    case Op::MODPJNWORD:
      e.reads = {b};
      e.writes = {a};
      break;
    case Op::JMP:
      e.jumps = {jump_target(p, i)};
      e.falls_through = false;
      break;
    case Op::NOMATCH:  // reads and writes nothing: a note for the event
      break;
    case Op::JNWORD:
    case Op::JNEQK:
    case Op::JNPAIR:
    case Op::JNTAG:
    case Op::JNSELF:
      e.reads = {a};
      e.jumps = {jump_target(p, i)};
      break;
    case Op::JNEQ:
      e.reads = {a, b};
      e.jumps = {jump_target(p, i)};
      break;
    case Op::JNCODE:  // reads a global, no register
      e.jumps = {jump_target(p, i)};
      break;
    case Op::JNLESS:
    case Op::JNLESSEQ:
    case Op::JNGREATER:
    case Op::JNGREATEREQ:
      e.reads = {a};
      if (!(in.x & 1)) e.reads.push_back(b);
      e.jumps = {jump_target(p, i)};
      break;
    case Op::TAGSWITCH: {
      e.reads = {a};
      e.jumps = {jump_target(p, i)};  // not a pair
      const TagSwitch& s = p.switches[b];
      for (const auto& [tag, at] : s.cases) e.jumps.push_back(at);
      e.jumps.push_back(s.otherwise);
      e.falls_through = false;
      break;
    }
    case Op::BORROW:  // R(b)'s count goes to the frame's anchor (engine/frames.hpp)
      e.reads = {b};
      break;
    case Op::MOVEB:
      e.reads = {b};
      e.writes = {a};
      break;
    case Op::UNPAIRJB:      // R(a) is left as it is (uncounted)
    case Op::UNPAIRJBJNEQ:  // made after the passes; its JNEQ word follows
      e.jumps = {jump_target(p, i)};
      e.reads = {a};
      e.writes = {b, (in.x & 2) ? a : b + 1};
      break;
    case Op::UNPAIRJ:
      e.jumps = {jump_target(p, i)};  // not a pair: nothing written
      [[fallthrough]];
    case Op::UNPAIR:
      e.reads = {a};
      if (in.x & 2) {  // in place: the tail replaces the pair
        e.writes = {b, a};
        break;
      }
      e.writes = {b, b + 1};
      if ((in.x & 1) && a != b && a != b + 1) e.empties = {a};
      break;
    case Op::TAIL:
    case Op::TAILUNPAIRJ:  // made after the passes; its UNPAIRJ word follows
      e.reads = {a};
      e.writes = {b};
      if ((in.x & 1) && a != b) e.empties = {a};
      break;
    case Op::LETFAIL:
    case Op::THROW:
      if (in.op == Op::THROW) e.reads = {a};
      e.falls_through = false;
      break;
    case Op::CALL:
    case Op::CALLL:
    case Op::CALLST:  // the callee's frame takes the arguments; a value comes back in R(a)
      if (!(in.op != Op::CALLST && c)) e.reads.push_back(a);
      range(e.reads, a + 1, b);
      range(e.empties, a + 1, b);
      e.writes = {a};
      break;
    case Op::TAILCALL:
    case Op::TAILCALLD:
    case Op::TAILSELF:  // made after the passes; as TAILCALL
    case Op::TAILSELFD:
    case Op::TAILCALLST:
    case Op::TAILSELFST:
      if (!callee_is_global(in)) e.reads.push_back(a);
      for (uint32_t r = 0; r < b; ++r)  // argument r is parameter r, passed on in place
        e.reads.push_back(((args_in_place(in) >> r) & 1) ? r : a + 1 + r);
      e.falls_through = false;
      e.tail_call = true;
      break;
    case Op::BECOMEF:  // its fast path takes the arguments and skips the CALL and BECOME after it
      e.reads = {a};
      range(e.reads, a + 1, b);
      e.jumps = {i + 3};
      break;
    case Op::DROPS:  // data, never reached
      e.falls_through = false;
      break;
    case Op::RET:
    case Op::RETB:
    case Op::TAILEXEC:
    case Op::BEHEXEC:
      e.reads = {a};
      e.falls_through = false;
      break;
    case Op::RETK:
    case Op::RETKB:
    case Op::END:
    case Op::UNHANDLED:
      e.falls_through = false;
      break;
    case Op::EXEC:
      e.reads = {a};
      break;
    case Op::SEND:
      e.reads = {a, b};
      if ((in.x & 1) && a != b) e.empties = {a};
      break;
    case Op::AFTER:
      e.reads = {a, b, c};
      break;
    case Op::BECOME:
      e.reads = {a};
      e.empties = {a};
      break;
  }
}

}  // namespace humus::compile
