// Global variables: top-level DEF, LET and CREATE, and the built-ins.
//
// The compiler turns every global name into a slot index once; running code
// reads the slot with one atomic load, never by name. Slots live in chunks
// that never move, so the table can grow (the REPL defines new names while
// actors run) without invalidating readers. A value stored in a global is
// made immortal: globals are shared by every actor, so counting references
// to them would bounce cache lines between cores, and a redefined value may
// still be in use by a running event, so it must never be freed.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/value.hpp"

namespace humus::rt {

class Globals {
 public:
  Globals();
  ~Globals();
  Globals(const Globals&) = delete;
  Globals& operator=(const Globals&) = delete;

  // The slot of `name`, created unbound on first use (compile time).
  uint32_t slot(std::string_view name);
  std::optional<uint32_t> find(std::string_view name) const;
  std::string name(uint32_t slot) const;

  // The value in a slot, or an empty Value when it is unbound.
  Value get(uint32_t slot) const {
    uint64_t bits = cell(slot).load(std::memory_order_acquire);
    return Value::from_immortal_bits(bits);
  }
  void set(uint32_t slot, Value v);
  // Makes v's object immortal (uncounted, shared freely between threads) and
  // frees it when these globals are destroyed. For global values and for
  // constants in compiled code, which must then be gone first.
  void pin(const Value& v);
  // Empties every pinned value (free_pinned's first phase) and unbinds every
  // slot, when the runtime ends: what only they held can then be collected
  // before the pinned objects themselves go with these globals.
  void clear_pinned();
  // The cell behind a slot: it never moves, so compiled code can keep its address.
  const std::atomic<uint64_t>* cell_address(uint32_t slot) const { return &cell(slot); }

  // The standard library's own helpers (prelude_*): globals like any other,
  // left out of "did you mean" suggestions, the REPL's :globals and its completion.
  // Helpers of the standard library, hidden from suggestions and listings:
  // the prelude's own (prelude_*) and the natives its modules bind (native_*).
  static bool is_internal(std::string_view name) { return name.starts_with("prelude_") || name.starts_with("native_"); }
  // Every bound global, in slot order (for :globals and embedding).
  std::vector<std::pair<std::string, Value>> bound() const;

  // Lending: a host that makes many short runtimes from one loaded library
  // (the fuzz targets: the prelude) lends the runtime that loaded it these
  // globals, and with them its compiled code, instead of compiling it again
  // for each (RuntimeOptions::borrowed_globals). What they held when lent
  // is noted; when the borrower ends, `give_back` restores it: names made
  // since are dropped, slots bound since get their old values back, and the
  // values pinned since are emptied (clear_contents) and returned, for the
  // borrower to free once nothing it has can reach them (free_pinned).
  // One borrower at a time: a second `lend` throws std::logic_error.
  struct Loan {
    uint32_t names = 0;            // the slots that existed
    std::vector<uint64_t> cells;   // and what each held
    size_t pinned = 0;             // the values pinned so far
    bool builtins_intact = false;  // guard_builtins' flag
  };
  Loan lend();
  std::vector<Object*> give_back(const Loan& loan);

  // Compiled code computes add(a, b), less(a, b), ... in place while the
  // built-in functions' globals [first, first + count) hold what they held
  // when this was called; binding any of them again clears the flag, and
  // such code then calls whatever the global holds.
  void guard_builtins(uint32_t first, uint32_t count) {
    guard_first_ = first;
    guard_count_ = count;
    builtins_intact_.store(true, std::memory_order_relaxed);
  }
  const std::atomic<bool>& builtins_intact() const { return builtins_intact_; }
  // Set for good once any runtime of the process has bound a built-in's
  // global again: until then compiled code tests this one word (a constant
  // address) instead of reaching its runtime's flag.
  static std::atomic<bool> any_rebound;

 private:
  static constexpr uint32_t kChunkBits = 10;
  static constexpr uint32_t kChunkSize = 1u << kChunkBits;
#if defined(HUMUS_FUZZ_BUILD)
  // The fuzz targets make a runtime per input, and a directory of 16,384
  // entries zeroed each time was a tenth of their time (its page faults,
  // under the sanitizer); their programs have a few thousand names at most.
  static constexpr uint32_t kMaxChunks = 1u << 8;  // 256K globals
#else
  static constexpr uint32_t kMaxChunks = 1u << 14;  // 16M globals
#endif

  std::atomic<uint64_t>& cell(uint32_t slot) const {
    return chunks_[slot >> kChunkBits].load(std::memory_order_acquire)[slot & (kChunkSize - 1)];
  }

  mutable std::mutex mutex_;  // guards names_, index_ and chunk creation
  std::unordered_map<std::string, uint32_t> index_;
  std::deque<std::string> names_;
  std::vector<Object*> pinned_;
  std::unique_ptr<std::atomic<std::atomic<uint64_t>*>[]> chunks_;
  uint32_t guard_first_ = 0, guard_count_ = 0;
  std::atomic<bool> builtins_intact_{false};
  bool lent_ = false;
};

}  // namespace humus::rt
