#include "interpreter/engine/disassemble.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

#include "interpreter/engine/program.hpp"
#include "runtime/print.hpp"

namespace humus::engine {

namespace {
// A drop field (proto.hpp) as the registers it releases: a set as its
// members ("[drops 0,2,5]"), a bound as a range.
std::string drops(uint8_t x, uint16_t field) {
  if (x & kDropMask) {
    std::string out;
    for (uint32_t r = 0; r < 16; ++r)
      if ((field >> r) & 1) out += (out.empty() ? "" : ",") + std::to_string(r);
    return out.empty() ? "  [drops none]" : "  [drops " + out + "]";
  }
  if (field == kDropAll) return "  [drops all]";
  return field ? "  [drops 0-" + std::to_string(field - 1) + "]" : "  [drops none]";
}
}  // namespace

const char* op_name(Op op) {
  static const char* const kNames[] = {
#define OP(name) #name,
#include "interpreter/engine/opcodes.hpp"
#undef OP
  };
  return kNames[static_cast<size_t>(op)];
}

std::string disassemble(const Proto& p) {
  std::string out = fmt::format("registers {}, arity {}, entries value {} statement {} behavior {}\n", p.nregs, p.arity,
                                int64_t(p.entry_value == Proto::kNoEntry ? -1 : p.entry_value),
                                int64_t(p.entry_stmt == Proto::kNoEntry ? -1 : p.entry_stmt),
                                int64_t(p.entry_behavior == Proto::kNoEntry ? -1 : p.entry_behavior));
  if (p.borrowed) {
    std::string regs;
    for (uint32_t r = 0; r < 16; ++r)
      if ((p.borrowed >> r) & 1) regs += (regs.empty() ? "" : ",") + std::to_string(r);
    out += fmt::format("borrowed {}, loop entry {}\n", regs, p.loop_entry);
  }
  for (size_t i = 0; i < p.code.size(); ++i) {
    const Instr& in = p.code[i];
    out += fmt::format("{:4} {:3}:{:<3} {:<11} a={} b={} c={}", i, p.pos[i].first, p.pos[i].second, op_name(in.op),
                       in.a, in.b, in.c);
    if (in.x) out += fmt::format(" x={}", in.x);
    switch (in.op) {  // jumps: their target
      case Op::JMP:
      case Op::JNWORD:
      case Op::JNEQ:
      case Op::JNEQK:
      case Op::JNLESS:
      case Op::JNLESSEQ:
      case Op::JNGREATER:
      case Op::JNGREATEREQ:
      case Op::JNPAIR:
      case Op::JNTAG:
      case Op::JNSELF:
      case Op::JNCODE:
      case Op::UNPAIRJ:
      case Op::UNPAIRJB:
      case Op::UNPAIRJBJNEQ:
      case Op::TAGSWITCH:
        out += fmt::format("  -> {}", int64_t(i) + 1 + int16_t(in.c));
        break;
      default:
        break;
    }
    if (in.op == Op::LOADK || in.op == Op::JNWORD || in.op == Op::JNEQK || in.op == Op::JNTAG ||
        returns_constant(in.op))
      out += "  ; " + rt::to_string(p.consts[in.b]);
    if (ends_frame(in.op)) out += drops(in.x, drop_bound(in));
    if (in.op == Op::DROPS) out += drops(in.x, in.a);
    out += '\n';
  }
  return out;
}

std::string disassemble(const CompiledUnit& unit) {
  std::string out;
  std::set<const void*> seen;
  std::vector<std::pair<std::string, const Proto*>> todo;
  auto reach = [&](const Proto& p) {
    if (!p.tables) return;
    for (const auto& c : p.tables->closures)
      if (seen.insert(c.code).second)
        todo.emplace_back("function \\" + rt::SourceLoc(c.code->loc).file_name() + ":" +
                              std::to_string(c.code->loc.line) + ":" + std::to_string(c.code->loc.column),
                          &c.code->proto);
    for (const auto& g : p.tables->groups)
      for (const auto& [code, reg] : g.members)
        if (seen.insert(code).second)
          todo.emplace_back("function \\" + code->loc.file_name() + ":" + std::to_string(code->loc.line) + ":" +
                                std::to_string(code->loc.column),
                            &code->proto);
    for (const auto& b : p.tables->blocks)
      if (seen.insert(b.code).second)
        todo.emplace_back("block [" + b.code->loc.file_name() + ":" + std::to_string(b.code->loc.line) + ":" +
                              std::to_string(b.code->loc.column) + "]",
                          &b.code->proto);
  };
  for (size_t i = 0; i < unit.stmts.size(); ++i) {
    const TopStmt& t = *unit.stmts[i];
    if (t.kind == TopStmt::Kind::Import) continue;
    out += fmt::format("== statement {}:{}\n", t.loc.line, t.loc.column);
    if (t.kind == TopStmt::Kind::Define) {
      // No code of its own: the function is made and bound as it is.
      const LambdaCode& f = *t.function;
      const std::string name = fmt::format("function \\{}:{}:{}", f.loc.file_name(), f.loc.line, f.loc.column);
      out += fmt::format("  define {} = {}\n", f.name, name);
      if (seen.insert(&f).second) todo.emplace_back(name, &f.proto);
    } else {
      out += disassemble(*t.proto);
      reach(*t.proto);
    }
    while (!todo.empty()) {
      auto [name, p] = todo.front();
      todo.erase(todo.begin());
      out += "== " + name + "\n" + disassemble(*p);
      reach(*p);
    }
  }
  return out;
}

}  // namespace humus::engine
