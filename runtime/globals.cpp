#include "runtime/globals.hpp"

#include <algorithm>
#include <stdexcept>

#include "runtime/children.hpp"

namespace humus::rt {

// Value-initialized (zeroed at once) rather than stored one by one: every
// runtime makes this table, and a loop over its 16,384 entries, and another
// at the end, cost a fuzz target a tenth of each input (issue 34).
Globals::Globals() : chunks_(new std::atomic<std::atomic<uint64_t>*>[kMaxChunks]()) {}

Globals::~Globals() {
  // The cells hold uncounted references to pinned values; those go here.
  free_pinned(std::move(pinned_));
  // Only the chunks slot() made: they are made in order, so up to the first null.
  for (uint32_t i = 0; i < kMaxChunks; ++i) {
    std::atomic<uint64_t>* chunk = chunks_[i].load(std::memory_order_relaxed);
    if (!chunk) break;
    delete[] chunk;
  }
}

void Globals::pin(const Value& v) {
  if (!v.is_object() || v.object()->immortal()) return;
  // The whole value, not only its root: compiled code that walks a constant
  // tree (an interpreter's program, a table) counts nothing on the way down.
  // Actors inside stay counted (their lifetime is the collector's business);
  // one bound to a global is pinned as the root.
  std::vector<Object*> todo{v.object()};
  std::lock_guard lock(mutex_);
  while (!todo.empty()) {
    Object* o = todo.back();
    todo.pop_back();
    const bool shared_life = o->kind == ObjKind::Actor || o->kind == ObjKind::Envelope;
    if (o->immortal() || (shared_life && o != v.object())) continue;
    // Room first: an immortal object missing from pinned_ would never be freed.
    if (pinned_.size() == pinned_.capacity()) pinned_.reserve(std::max<size_t>(16, 2 * pinned_.capacity()));
    o->make_immortal();
    pinned_.push_back(o);
    if (!shared_life)
      for_children(o, [&](const Value& f) {
        if (f.is_object()) todo.push_back(f.object());
      });
  }
}

void Globals::clear_pinned() {
  std::lock_guard lock(mutex_);
  for (uint32_t slot = 0; slot < names_.size(); ++slot) cell(slot).store(0, std::memory_order_relaxed);
  for (Object* o : pinned_) clear_contents(o);
}

Globals::Loan Globals::lend() {
  std::lock_guard lock(mutex_);
  if (lent_) throw std::logic_error("these globals are already lent to a runtime");
  Loan loan;
  loan.names = uint32_t(names_.size());
  loan.cells.reserve(loan.names);
  for (uint32_t slot = 0; slot < loan.names; ++slot) loan.cells.push_back(cell(slot).load(std::memory_order_relaxed));
  loan.pinned = pinned_.size();
  loan.builtins_intact = builtins_intact_.load(std::memory_order_relaxed);
  lent_ = true;
  return loan;
}

std::vector<Object*> Globals::give_back(const Loan& loan) {
  std::lock_guard lock(mutex_);
  for (uint32_t slot = 0; slot < loan.names; ++slot) cell(slot).store(loan.cells[slot], std::memory_order_relaxed);
  while (names_.size() > loan.names) {
    cell(uint32_t(names_.size() - 1)).store(0, std::memory_order_relaxed);
    index_.erase(names_.back());
    names_.pop_back();
  }
  std::vector<Object*> since(pinned_.begin() + std::ptrdiff_t(loan.pinned), pinned_.end());
  pinned_.resize(loan.pinned);
  for (Object* o : since) clear_contents(o);
  builtins_intact_.store(loan.builtins_intact, std::memory_order_relaxed);
  lent_ = false;
  return since;
}

uint32_t Globals::slot(std::string_view name) {
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(std::string(name)); it != index_.end()) return it->second;
  auto slot = static_cast<uint32_t>(names_.size());
  if ((slot >> kChunkBits) >= kMaxChunks) throw std::length_error("too many global names");
  // (A chunk made for a name whose entry then ran out of memory is kept for the next.)
  if (!chunks_[slot >> kChunkBits].load(std::memory_order_relaxed)) {
    auto* chunk = new std::atomic<uint64_t>[kChunkSize]();  // zeroed: unbound
    chunks_[slot >> kChunkBits].store(chunk, std::memory_order_release);
  }
  names_.emplace_back(name);
  index_.emplace(std::string(name), slot);
  return slot;
}

std::atomic<bool> Globals::any_rebound{false};

std::optional<uint32_t> Globals::find(std::string_view name) const {
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(std::string(name)); it != index_.end()) return it->second;
  return std::nullopt;
}

std::string Globals::name(uint32_t slot) const {
  std::lock_guard lock(mutex_);
  return names_.at(slot);
}

void Globals::set(uint32_t slot, Value v) {
  if (slot - guard_first_ < guard_count_) {
    builtins_intact_.store(false, std::memory_order_relaxed);
    any_rebound.store(true, std::memory_order_relaxed);
  }
  pin(v);
  // The slot keeps the reference `v` held, uncounted, until the globals go.
  cell(slot).store(v.leak_bits(), std::memory_order_release);
}

std::vector<std::pair<std::string, Value>> Globals::bound() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, Value>> out;
  for (uint32_t i = 0; i < names_.size(); ++i) {
    Value v = get(i);
    if (!v.empty()) out.emplace_back(names_[i], std::move(v));
  }
  return out;
}

}  // namespace humus::rt
