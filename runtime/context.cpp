// Dropping an event's buffered effects.
#include "runtime/context.hpp"

#include <algorithm>
#include <memory>

namespace humus::rt {

void Effects::send_elsewhere(Actor* target, Value message) {
  if (target->flags.load(std::memory_order_relaxed) & Object::kConsole) [[unlikely]] {
    console.push_back({target, std::move(message)});
    return;
  }
  const bool indexed = runs.size() > kScanRuns;
  if (!indexed) {
    for (Run& r : runs)
      if (r.target == target) return append(r, std::move(message));
  } else {
    if (run_index.empty())  // the runs just grew past a scan: index them
      for (uint32_t i = 0; i < runs.size(); ++i) run_index.emplace(runs[i].target, i);
    if (auto it = run_index.find(target); it != run_index.end()) return append(runs[it->second], std::move(message));
  }
  // A new run. What can run out of memory goes first, so that a bad_alloc
  // (which fails the event) leaves the runs and their index as they were.
  if (runs.size() == runs.capacity()) runs.reserve(std::max<size_t>(8, 2 * runs.capacity()));
  auto m = std::make_unique<Message>();
  if (indexed) run_index.emplace(target, uint32_t(runs.size()));
  m->payload = std::move(message);
  target->retain();
  if (target->foreign()) [[unlikely]]
    foreign = true;
  Message* first = m.release();
  runs.push_back({target, first, first, 1});
}

void Effects::extend(Run& r, Value message) {
  // Batches double from 4 items to 256: a short run wastes little room, a
  // long one costs a node per 256 messages.
  uint32_t capacity = 4;
  if (r.last->is_batch()) capacity = std::min<uint32_t>(static_cast<Batch*>(r.last)->capacity * 2, 256);
  Batch* b = Batch::make(capacity);
  new (&b->items()[0]) Value(std::move(message));
  b->count = 1;
  r.last->next.store(b, std::memory_order_relaxed);  // published by the commit's push
  r.last = b;
}

void Effects::drop_all() {
  for (Run& r : runs) {
    for (Message* m = r.first; m;) {
      Message* next = m->next.load(std::memory_order_relaxed);
      free_message(m);
      m = next;
    }
    r.target->release();
  }
  runs.clear();
  // clear() on a hash map costs its bucket count: after one event that sent
  // to a million actors, every later event would pay for a million buckets
  // (Savina's fjcreate ran 114x slower than Erlang). A big index goes whole.
  if (run_index.bucket_count() > kKeepBuckets)
    std::unordered_map<const Actor*, uint32_t>().swap(run_index);
  else if (!run_index.empty())
    run_index.clear();
  foreign = false;
  delayed.clear();
  console.clear();
  out.clear();
  become = Value();
  for (uint32_t i = 0; i < pending_count; ++i) pending[i] = Value();
  pending_code = nullptr;
  pending_count = 0;
  // Kept for the next event, unless one huge event (a loop of sends that
  // alternate between actors, or of AFTERs) grew them: that memory goes
  // back rather than staying with the worker.
  constexpr size_t kKeep = 1 << 14;
  if (runs.capacity() > kKeep) std::vector<Run>().swap(runs);
  if (delayed.capacity() > kKeep) std::vector<Delayed>().swap(delayed);
  if (console.capacity() > kKeep) std::vector<ConsoleSend>().swap(console);
  if (out.capacity() > (size_t(1) << 20)) std::string().swap(out);
}

}  // namespace humus::rt
