// The senders the dispatcher holds back, by the actor they sent to
// (dispatcher.hpp, "Muting"). A muted sender is in no ready queue, so its
// Actor::next_ready links it into its receiver's list; the receivers are
// keys of an open-addressing table. Nothing is allocated per mute (Savina
// chameneos mutes half a million senders in a run), and no operation costs
// more for the table having been large once. Not thread-safe: the
// dispatcher holds its mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/actor.hpp"

namespace humus::rt {

class MutedSenders {
 public:
  // Puts `sender` in `receiver`'s list; true if the list was empty (a new
  // key: the caller keeps a reference to the receiver for it).
  bool add(Actor* receiver, Actor* sender) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    size_t i = home(receiver);
    while (slots_[i].receiver && slots_[i].receiver != receiver) i = (i + 1) & mask();
    Slot& s = slots_[i];
    const bool fresh = !s.receiver;
    if (fresh) {
      s.receiver = receiver;
      s.head = nullptr;
      ++size_;
    }
    sender->next_ready = s.head;
    s.head = sender;
    return fresh;
  }

  // Takes `receiver`'s list out of the table: its first sender, the rest
  // linked through next_ready; null if it had none.
  Actor* take(Actor* receiver) {
    if (size_ == 0) return nullptr;
    size_t i = home(receiver);
    while (slots_[i].receiver != receiver) {
      if (!slots_[i].receiver) return nullptr;
      i = (i + 1) & mask();
    }
    Actor* head = slots_[i].head;
    erase_at(i);
    return head;
  }

  // Every (receiver, first sender) left, and empties the table (stop()).
  template <class F>
  void drain(F each) {
    for (Slot& s : slots_)
      if (s.receiver) each(s.receiver, s.head);
    slots_.assign(slots_.size(), Slot{});
    size_ = 0;
  }

  bool empty() const { return size_ == 0; }

 private:
  struct Slot {
    Actor* receiver = nullptr;
    Actor* head = nullptr;
  };

  size_t mask() const { return slots_.size() - 1; }
  // Actors are 64-byte aligned: drop those bits, then Fibonacci hashing.
  size_t home(const Actor* a) const {
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(a)) >> 6) * 0x9E3779B97F4A7C15ull >> 32) & mask();
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 16 : slots_.size() * 2);
    old.swap(slots_);
    for (Slot& s : old) {
      if (!s.receiver) continue;
      size_t i = home(s.receiver);
      while (slots_[i].receiver) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  // Linear probing's deletion by backward shift: a later entry of the same
  // run moves into the hole unless its home lies cyclically in (hole, it].
  void erase_at(size_t hole) {
    for (size_t j = (hole + 1) & mask(); slots_[j].receiver; j = (j + 1) & mask()) {
      const size_t k = home(slots_[j].receiver);
      const bool stays = hole <= j ? (hole < k && k <= j) : (hole < k || k <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole] = Slot{};
    --size_;
  }

  std::vector<Slot> slots_;  // a power of two in size, at most half full
  size_t size_ = 0;
};

}  // namespace humus::rt
