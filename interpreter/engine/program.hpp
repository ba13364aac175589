// A compiled top-level statement, and the arena that keeps compiled code alive.
//
// Function and block values point at their code (and print its source
// location), so compiled code lives as long as the runtime: the arena owns
// every LambdaCode, BlockCodeImpl and top-level statement, and the sources
// they came from.
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "grammar/ast.hpp"
#include "interpreter/engine/proto.hpp"

namespace humus::engine {

// A top-level statement. Most have code of their own; a top-level `DEF f(x)
// AS ...` has none (its function captures nothing), so that a script of
// many small definitions keeps little beyond the functions themselves.
struct TopStmt {
  enum class Kind : uint8_t {
    Run,     // LET, CREATE and effects: `proto`'s statement entry
    Value,   // an expression statement: `proto`'s value entry gives the value
    Define,  // DEF f(x) AS ...: `function`'s closure becomes global `slot`
    Import,  // IMPORT "..." (handled by the interpreter)
  };
  Kind kind = Kind::Run;
  ast::Loc loc;
  rt::SourceLoc source_loc;
  std::unique_ptr<Proto> proto;          // Run, Value
  const LambdaCode* function = nullptr;  // Define
  uint32_t slot = 0;                     // Define
  std::string import;                    // Import
};

struct CompileWarning {
  ast::Loc loc;
  std::string message;
  std::string kind;  // "shadow", "arity": what --no-warn=KIND silences ("": always shown)
};

// A global name as the code uses it: where first read (for name checking),
// and whether top-level code reads it as it runs (not only a function or
// behavior that runs later).
struct GlobalUse {
  std::string name;
  ast::Loc loc;
  bool immediate = false;
  ast::Loc immediate_loc;  // the first read by top-level code, when `immediate`
};

struct CompiledUnit {
  ast::SourcePtr source;
  std::vector<std::unique_ptr<TopStmt>> stmts;
  std::vector<CompileWarning> warnings;
  std::vector<GlobalUse> global_reads;   // each global the code reads, at its first read
  std::vector<std::string> global_defs;  // the globals its top-level statements bind
};

class CodeArena {
 public:
  template <class T, class... Args>
  T* make(Args&&... args) {
    auto p = std::make_unique<T>(std::forward<Args>(args)...);
    T* raw = p.get();
    if constexpr (std::is_base_of_v<rt::FunctionCode, T>)
      functions_.push_back(std::move(p));
    else
      blocks_.push_back(std::move(p));
    return raw;
  }
  void keep(ast::SourcePtr s) { sources_.push_back(std::move(s)); }
  // Code made since a mark can be dropped again when nothing refers to it:
  // a compile for its diagnostics only keeps no code (Interpreter::check).
  struct Mark {
    size_t functions, blocks;
  };
  Mark mark() const { return {functions_.size(), blocks_.size()}; }
  void drop_since(Mark m) {
    functions_.resize(m.functions);
    blocks_.resize(m.blocks);
  }
  void keep(std::unique_ptr<CompiledUnit> u) { units_.push_back(std::move(u)); }
  void clear() {
    units_.clear();
    functions_.clear();
    blocks_.clear();
    sources_.clear();
  }

 private:
  std::vector<std::unique_ptr<rt::FunctionCode>> functions_;
  std::vector<std::unique_ptr<rt::BlockCode>> blocks_;
  std::vector<ast::SourcePtr> sources_;
  std::vector<std::unique_ptr<CompiledUnit>> units_;
};

}  // namespace humus::engine
