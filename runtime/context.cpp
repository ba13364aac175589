// Dropping an event's buffered effects.
#include "runtime/context.hpp"

namespace humus::rt {

void Effects::drop_all() {
  for (Run& r : runs) {
    for (Message* m = r.first; m;) {
      Message* next = m->next.load(std::memory_order_relaxed);
      delete m;
      m = next;
    }
    r.target->release();
  }
  runs.clear();
  delayed.clear();
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
}

}  // namespace humus::rt
