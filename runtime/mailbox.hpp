// An actor's mailbox: an intrusive multi-producer single-consumer queue
// (Dmitry Vyukov's design, as in Pony's messageq.c).
//
// Any thread may push; only the worker currently running the actor pops.
// Producers swap themselves into `head_` and then link the previous node, so
// a push is one atomic exchange and one store, and never blocks. Between
// those two steps the queue is briefly "inconsistent": pop() returns null
// although a message is on its way. The dispatcher copes by re-checking
// `pushed_since_empty()` (which sees the exchange) after marking an actor idle.
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

  void push(Message* m) { push_chain(m, m); }

  // Pushes the messages linked from `first` to `last` (by relaxed stores of
  // `next`, made by this thread) in one step: they arrive together, in order.
  void push_chain(Message* first, Message* last) {
    last->next.store(nullptr, std::memory_order_relaxed);
    // Acquire pairs with the previous producer so that we link after it;
    // release publishes the payloads and the chain's links. seq_cst besides:
    // the dispatcher's "push, then read the actor's state" must not be
    // reordered against a worker's "store Idle, then pushed_since_empty()"
    // (a Dekker-style handshake).
    Message* prev = head_.exchange(last, std::memory_order_seq_cst);
    // Release so pop()'s acquire load of next sees everything written above.
    prev->next.store(first, std::memory_order_release);
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

  // For the consumer, while it still owns the queue: true when the queue is
  // empty and no push is half done (tail and head both at the stub). pop()
  // can return null at other times too: while a push is half done, or when a
  // push raced its re-insertion of the stub, leaving messages behind it.
  bool empty_for_consumer() const {
    return tail_ == &stub_ && stub_.next.load(std::memory_order_acquire) == nullptr &&
           head_.load(std::memory_order_seq_cst) == &stub_;
  }

  // For the consumer, after it found the queue empty_for_consumer() and then
  // gave the actor up (it may already be running on another worker): whether
  // a push has started since. Reads only `head_`, never the consumer's
  // `tail_`; every push moves the head away from the stub, and only the
  // consumer (which no longer runs) puts the stub back.
  bool pushed_since_empty() const { return head_.load(std::memory_order_seq_cst) != &stub_; }

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
