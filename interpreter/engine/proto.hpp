// Compiled code: instructions for the VM (vm.cpp), and the code objects the
// runtime sees (LambdaCode for functions, BlockCodeImpl for block values).
//
// A Proto is the code of one function body, block literal or top-level
// statement: 8-byte instructions over the registers of one frame, with
// their source positions, constants and the tables instructions refer to.
// A function's body is compiled once for each way it can be run, each with
// its own entry point into the same Proto:
//   * value: the body gives a value (RET), as in `add(f(x), 1)`;
//   * statement: the body runs as a statement (END), as in a block's
//     `loop(add(i, 1))`, so a block it gives runs in place, and a call in
//     its tail runs as a statement too, in the same frame;
//   * behavior: the body of an actor's behavior; ? means "unhandled".
// Parameters arrive in registers 0 .. arity-1 (arity n for a tuple
// parameter of n elements, else 1); the entry's first instructions match
// what is not a plain name.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/code.hpp"
#include "runtime/source_loc.hpp"
#include "runtime/value.hpp"

namespace humus::engine {

using rt::Value;

enum class Op : uint8_t {
#define OP(name) name,
#include "interpreter/engine/opcodes.hpp"
#undef OP
};

struct Instr {
  Op op;
  uint8_t x = 0;  // flags (opcodes.hpp)
  uint16_t a = 0, b = 0, c = 0;
};
static_assert(sizeof(Instr) == 8);

// Registers, constants and instructions are numbered in 16 bits.
inline constexpr uint32_t kMaxOperand = 0xFFFF;
// The most values a call passes one by one (f(x1, ..., x8)); a tuple
// parameter of more elements takes its argument as one value.
inline constexpr uint32_t kMaxSpread = 8;

// Which registers an end of a frame releases (compile/drop_plan.cpp), in a
// 16-bit field of the instruction: when its x has kDropMask, the field is
// the set of registers R(0) .. R(15) that may still hold a value there (bit
// i: R(i)), the others known to be empty; otherwise it is a bound: R(0) ..
// R(bound-1) may hold one. kDropAll: every register of the frame. A set
// skips the registers a frame's end finds empty (moved into calls), which a
// bound walks over one by one.
inline constexpr uint16_t kDropAll = 0xFFFF;
inline constexpr uint8_t kDropMask = 0x80;
// In x of an ADD or SUB whose result only the JNEQ after it reads
// (compile/last_use.cpp): fused into ADDJNEQ or SUBJNEQ, the result is
// compared and not written to its register.
inline constexpr uint8_t kResultUnread = 0x4;
inline bool ends_frame(Op op) {
  switch (op) {
    case Op::RET:
    case Op::RETK:
    case Op::RETB:
    case Op::RETKB:
    case Op::END:
    case Op::UNHANDLED:
    case Op::TAILEXEC:
    case Op::BEHEXEC:
      return true;
    default:
      return false;
  }
}
// Where such an instruction keeps its bound (an operand it does not use).
inline bool returns_constant(Op op) { return op == Op::RETK || op == Op::RETKB; }
inline uint16_t* drop_field(Instr& in) { return returns_constant(in.op) ? &in.c : &in.b; }
inline uint16_t drop_bound(const Instr& in) { return returns_constant(in.op) ? in.c : in.b; }

class LambdaCode;
class BlockCodeImpl;

// Where a new closure's (or block's) captured value comes from, in the
// frame that makes it.
struct CaptureSource {
  enum class Kind : uint8_t { Reg, Capture, SelfFn, Sibling };
  Kind kind;
  uint32_t index = 0;                   // Reg, Capture
  const LambdaCode* sibling = nullptr;  // Sibling: a member of the running function's group
};

struct ClosurePlan {
  const LambdaCode* code;
  std::vector<CaptureSource> sources;
};
struct BlockValuePlan {
  const BlockCodeImpl* code;
  std::vector<CaptureSource> sources;
};
// A recursive group of local functions: every member captures the same values.
struct GroupPlan {
  std::vector<std::pair<const LambdaCode*, uint32_t>> members;  // code, register
  std::vector<CaptureSource> sources;
};

// TAGSWITCH: where matching goes on for each tag a CASE's first
// alternatives begin with, and for anything else. Symbols with ids close
// together (the usual message tags) index a table; other tags are found by
// binary search.
struct TagSwitch {
  std::vector<std::pair<uint64_t, uint32_t>> cases;  // sorted by the tag's word
  uint32_t otherwise = 0;
  uint64_t dense_first = 0;     // the first symbol's word, when dense
  std::vector<uint32_t> dense;  // by (word - dense_first) / 16
  uint64_t dense_count = 0;     // dense.size(), 0 when not dense

  uint32_t target(uint64_t tag) const {
    // The distance from the first symbol, rotated: any word that is not a
    // symbol at or after it (a low nibble other than 0x6) becomes huge, so
    // one comparison tests both.
    const uint64_t i = std::rotr(tag - dense_first, 4);
    if (i < dense_count) return dense[i];
    if (dense_count) return otherwise;
    auto it = std::lower_bound(cases.begin(), cases.end(), std::pair<uint64_t, uint32_t>{tag, 0});
    return it != cases.end() && it->first == tag ? it->second : otherwise;
  }
  // Once `cases` and `otherwise` are filled.
  void plan() {
    std::sort(cases.begin(), cases.end());
    bool symbols = true;
    for (const auto& c : cases) symbols = symbols && (c.first & 0xF) == 0x6;
    if (!symbols || cases.empty() || ((cases.back().first - cases.front().first) >> 4) >= 64) return;
    dense_first = cases.front().first;
    dense.assign(((cases.back().first - dense_first) >> 4) + 1, otherwise);
    for (const auto& [tag, at] : cases) dense[(tag - dense_first) >> 4] = at;
    dense_count = dense.size();
  }
};

struct GlobalRef {
  const std::atomic<uint64_t>* cell;
  uint32_t slot;
};

struct Proto {
  static constexpr uint32_t kNoEntry = UINT32_MAX;

  std::vector<Instr> code;
  std::vector<std::pair<uint32_t, uint32_t>> pos;  // (line, column) of each instruction
  std::vector<Value> consts;                       // immediates, or pinned objects
  std::vector<GlobalRef> globals;
  // JNCODE's: the code of each function whose body is inlined here.
  std::vector<const rt::FunctionCode*> inlined;
  std::vector<TagSwitch> switches;
  // What CLOSURE, BLOCK, GROUP and SIBLING refer to: tables most small
  // functions do without, kept apart so that their Proto stays small (a
  // script of 300,000 one-line DEFs holds 300,000 of them). TAGSWITCH's
  // stay at hand: a behavior's dispatch reads them on every message.
  struct Tables {
    std::vector<ClosurePlan> closures;
    std::vector<BlockValuePlan> blocks;
    std::vector<GroupPlan> groups;
    std::vector<const LambdaCode*> siblings;
  };
  std::unique_ptr<Tables> tables;  // null until code needs one
  Tables& more() {
    if (!tables) tables = std::make_unique<Tables>();
    return *tables;
  }
  const std::string* file = nullptr;
  bool library = false;  // compiled from a standard-library module (ast::Source::library)
  uint32_t nregs = 1;    // registers of a frame (at least one)
  uint32_t arity = 1;    // values a call passes: 1, or n >= 2 for a tuple parameter of n
  uint32_t entry_value = kNoEntry, entry_stmt = kNoEntry, entry_behavior = kNoEntry;
  // Where a call of the function by itself in its value code starts again:
  // past the BORROW that anchors its borrowed parameter (entry_value when
  // there is none). `borrowed`: the registers R(0) .. R(15) that hold
  // values uncounted in the value code (compile/borrow_plan.cpp; the
  // frame's count of them is in its CallInfo).
  uint32_t loop_entry = kNoEntry;
  uint16_t borrowed = 0;
  // The global every TAILSELF and TAILSELFD of this code names
  // (superinstructions.cpp): read straight from here, the loop's turn is
  // one load shorter than through `globals`.
  const std::atomic<uint64_t>* self_cell = nullptr;

  // One past the value code's last instruction: each entry's code is one
  // block, up to the next entry's.
  uint32_t value_code_end() const {
    uint32_t end = uint32_t(code.size());
    for (uint32_t e : {entry_stmt, entry_behavior})
      if (e > entry_value && e < end) end = e;
    return end;
  }

  rt::SourceLoc loc(const Instr* at) const {
    const auto& p = pos[size_t(at - code.data())];
    return rt::SourceLoc{file, p.first, p.second};
  }
};

// The code of a lambda: its Proto, the names it captures (in the order of
// its closures' capture slots), and, for a behavior factory
// (`DEF counter(sum) AS \msg.[...]`), how to make the closure it gives
// straight from the arguments, without running the body.
class LambdaCode final : public rt::FunctionCode {
 public:
  explicit LambdaCode(rt::SourceLoc l) : FunctionCode(l) { tail_callable = true; }
  Value apply(const rt::Closure& self, const Value& arg, rt::Context& cx) const override;
  bool run_behavior(const rt::Closure& self, const Value& msg, rt::Context& cx) const override;

  Proto proto;

  // For a factory: where each capture of the closure it makes comes from.
  struct FactorySource {
    enum class Kind : uint8_t { Arg, Capture, SelfFn };
    Kind kind;
    uint32_t index;  // Arg: the argument; Capture: the factory's own
  };
  const LambdaCode* factory = nullptr;  // the code of the closure it makes
  std::vector<FactorySource> factory_sources;
  bool factory_for(uint32_t n) const { return factory && n == proto.arity; }
  // The factory's closure, from n = proto.arity arguments (taken over).
  // Both are inline, in closures.hpp: the VM's loop makes behaviors with them.
  inline Value make_from_arguments(const rt::Closure& self, Value* args) const;
  // The values that closure captures, from the arguments (taken over), to out[].
  inline void capture_arguments(const rt::Closure& self, Value* args, Value* out) const;
};

// The code of a block value: statement code in a frame of its own, reading
// what it uses from where it was written as captures.
class BlockCodeImpl final : public rt::BlockCode {
 public:
  explicit BlockCodeImpl(rt::SourceLoc l) : BlockCode(l) {}
  Proto proto;
};

}  // namespace humus::engine
