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
#include <new>

#include "runtime/value.hpp"

namespace humus::rt {

// A node of a mailbox: one message, or a Batch of them. An event's run of
// sends to one actor (a loop of a million sends) goes into batches, so it
// costs a node per few hundred messages and 8 bytes per message, not a node
// each; the receiver still handles every message as an event of its own.
struct Message {
  std::atomic<Message*> next{nullptr};
  Value payload;  // empty: the node is a Batch (a message is never empty: see Effects::send)

  bool is_batch() const { return payload.empty(); }
};

struct Batch : Message {
  uint32_t count = 0;  // items filled (by the sender)
  uint32_t capacity;
  uint32_t taken = 0;  // items handled (by the receiver)

  Value* items() { return reinterpret_cast<Value*>(this + 1); }

  // A batch with room for `capacity` items.
  static Batch* make(uint32_t capacity) {
    void* mem = ::operator new(sizeof(Batch) + sizeof(Value) * capacity);
    return new (mem) Batch(capacity);
  }

 private:
  explicit Batch(uint32_t c) : capacity(c) {}
};
static_assert(sizeof(Batch) % alignof(Value) == 0);

// Frees a node of either kind with the messages it still holds.
inline void free_message(Message* m) {
  if (!m->is_batch()) {
    delete m;
    return;
  }
  auto* b = static_cast<Batch*>(m);
  for (uint32_t i = b->taken; i < b->count; ++i) b->items()[i].~Value();
  b->~Batch();
  ::operator delete(static_cast<void*>(b));
}

class Mailbox {
 public:
  Mailbox() : head_(&stub_), tail_(&stub_) {}
  Mailbox(const Mailbox&) = delete;
  Mailbox& operator=(const Mailbox&) = delete;
  ~Mailbox() {
    while (Message* m = pop()) free_message(m);
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

  // Puts back the node pop() just returned (a batch not handled to the end):
  // pop() only moved the consumer's end past it, so this restores the queue.
  void unpop(Message* m) { tail_ = m; }

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
