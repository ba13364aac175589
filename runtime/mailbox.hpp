// An actor's mailbox: an intrusive multi-producer single-consumer queue
// (Dmitry Vyukov's design, as in Pony's messageq.c).
//
// Any thread may push; only the worker currently running the actor pops.
// Producers swap themselves into `head_` and then link the previous node, so
// a push is one atomic exchange and one store, and never blocks. Between
// those two steps the queue is briefly "inconsistent": pop() returns null
// although a message is on its way. The dispatcher copes by re-checking
// `maybe_nonempty()` (which sees the exchange) after marking an actor idle.
// Messages from one producer stay in order (FIFO per producer).
#pragma once

#include <atomic>

#include "runtime/value.hpp"

namespace humus::rt {

struct Message {
  std::atomic<Message*> next{nullptr};
  Value payload;
};

class Mailbox {
 public:
  Mailbox() : head_(&stub_), tail_(&stub_) {}
  Mailbox(const Mailbox&) = delete;
  Mailbox& operator=(const Mailbox&) = delete;
  ~Mailbox() {
    while (Message* m = pop()) delete m;
  }

  void push(Message* m) {
    m->next.store(nullptr, std::memory_order_relaxed);
    // Acquire pairs with the previous producer so that we link after it;
    // release publishes the payload. seq_cst besides: the dispatcher's
    // "push, then read the actor's state" must not be reordered against a
    // worker's "store Idle, then maybe_nonempty()" (a Dekker-style handshake).
    Message* prev = head_.exchange(m, std::memory_order_seq_cst);
    // Release so pop()'s acquire load of next sees the payload written above.
    prev->next.store(m, std::memory_order_release);
  }

  // The oldest message, or null if none is (completely) enqueued yet.
  Message* pop() {
    Message* tail = tail_;
    Message* next = tail->next.load(std::memory_order_acquire);
    if (tail == &stub_) {
      if (!next) return nullptr;
      tail_ = next;
      tail = next;
      next = next->next.load(std::memory_order_acquire);
    }
    if (next) {
      tail_ = next;
      return tail;
    }
    if (tail != head_.load(std::memory_order_acquire)) return nullptr;  // a push is mid-way
    // `tail` is the last message: put the stub behind it so it can be taken.
    push_stub();
    next = tail->next.load(std::memory_order_acquire);
    if (next) {
      tail_ = next;
      return tail;
    }
    return nullptr;
  }

  // For the consumer, just after it gave up the actor (it may already be
  // running on another worker): false only when the queue was drained and no
  // push has started since. Reads only `head_`, never the consumer's `tail_`:
  // a drained queue has the stub at its head, and every push moves the head.
  bool maybe_nonempty() const { return head_.load(std::memory_order_seq_cst) != &stub_; }

 private:
  void push_stub() {
    stub_.next.store(nullptr, std::memory_order_relaxed);
    Message* prev = head_.exchange(&stub_, std::memory_order_acq_rel);
    prev->next.store(&stub_, std::memory_order_release);
  }

  std::atomic<Message*> head_;  // producers' end
  Message* tail_;               // consumer's end (consumer only)
  Message stub_;
};

}  // namespace humus::rt
