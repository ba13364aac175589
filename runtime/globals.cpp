#include "runtime/globals.hpp"

#include <algorithm>
#include <stdexcept>

#include "runtime/children.hpp"

namespace humus::rt {

Globals::Globals() : chunks_(new std::atomic<std::atomic<uint64_t>*>[kMaxChunks]) {
  for (uint32_t i = 0; i < kMaxChunks; ++i) chunks_[i].store(nullptr, std::memory_order_relaxed);
}

Globals::~Globals() {
  // The cells hold uncounted references to pinned values; those go here.
  free_pinned(std::move(pinned_));
  for (uint32_t i = 0; i < kMaxChunks; ++i) delete[] chunks_[i].load(std::memory_order_relaxed);
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

uint32_t Globals::slot(std::string_view name) {
  std::lock_guard lock(mutex_);
  if (auto it = index_.find(std::string(name)); it != index_.end()) return it->second;
  auto slot = static_cast<uint32_t>(names_.size());
  if ((slot >> kChunkBits) >= kMaxChunks) throw std::length_error("too many global names");
  if ((slot & (kChunkSize - 1)) == 0) {
    auto* chunk = new std::atomic<uint64_t>[kChunkSize];
    for (uint32_t i = 0; i < kChunkSize; ++i) chunk[i].store(0, std::memory_order_relaxed);
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
