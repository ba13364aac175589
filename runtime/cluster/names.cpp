#include "runtime/cluster/names.hpp"

#include <chrono>

#include "runtime/runtime.hpp"

namespace humus::rt::cluster {

uint64_t publication_stamp() {
  // Wall-clock microseconds (comparable between machines), and never twice
  // the same here.
  static std::atomic<uint64_t> last{0};
  uint64_t now = uint64_t(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  uint64_t prev = last.load(std::memory_order_relaxed);
  uint64_t next;
  do {
    next = now > prev ? now : prev + 1;
  } while (!last.compare_exchange_weak(prev, next, std::memory_order_relaxed));
  return next;
}

bool Names::learn(const std::string& name, Entry entry) {
  std::vector<Value> answered;
  Value actor = entry.actor;
  {
    std::lock_guard lock(mutex_);
    auto it = table_.find(name);
    if (it != table_.end() && std::pair(it->second.stamp, it->second.owner) > std::pair(entry.stamp, entry.owner))
      return false;
    table_[name] = std::move(entry);
    auto [first, last] = waiting_.equal_range(name);
    for (auto w = first; w != last; ++w) answered.push_back(std::move(w->second));
    waiting_.erase(first, last);
  }
  for (auto& cust : answered) rt_.send(cust, actor);
  return true;
}

Value Names::lookup(const std::string& name, const Value& cust) {
  std::lock_guard lock(mutex_);
  auto it = table_.find(name);
  if (it != table_.end()) return it->second.actor;
  waiting_.emplace(name, cust);
  return Value();
}

std::vector<std::pair<std::string, Names::Entry>> Names::held_by(NodeId owner) const {
  std::vector<std::pair<std::string, Entry>> out;
  std::lock_guard lock(mutex_);
  for (const auto& [name, e] : table_)
    if (e.owner == owner) out.emplace_back(name, e);
  return out;
}

void Names::forget(NodeId owner) {
  std::vector<Value> gone;
  std::lock_guard lock(mutex_);
  for (auto it = table_.begin(); it != table_.end();) {
    if (it->second.owner == owner) {
      gone.push_back(std::move(it->second.actor));
      it = table_.erase(it);
    } else {
      ++it;
    }
  }
}

void Names::clear() {
  std::unordered_map<std::string, Entry> table;
  std::unordered_multimap<std::string, Value> waiting;
  std::lock_guard lock(mutex_);
  table.swap(table_);
  waiting.swap(waiting_);
}

}  // namespace humus::rt::cluster
