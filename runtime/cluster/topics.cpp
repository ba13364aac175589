#include "runtime/cluster/topics.hpp"

#include "runtime/runtime.hpp"

namespace humus::rt::cluster {

Topic& TopicStore::topic(std::string_view name) {
  std::lock_guard lock(mutex_);
  auto it = topics_.find(name);
  if (it != topics_.end()) return *it->second;
  auto t = std::make_unique<Topic>(std::string(name));
  t->actor = rt_.new_foreign_actor(t->code);
  return *topics_.emplace(t->name, std::move(t)).first->second;
}

void TopicStore::clear() {
  std::lock_guard lock(mutex_);
  for (auto& [name, t] : topics_) t->actor = Value();
}

}  // namespace humus::rt::cluster
