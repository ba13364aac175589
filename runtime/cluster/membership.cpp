#include "runtime/cluster/membership.hpp"

#include <algorithm>

#include "runtime/runtime.hpp"
#include "runtime/symbols.hpp"

namespace humus::rt::cluster {

Membership::Membership(Runtime& rt, NodeId self, std::string self_name, std::string prefix, int64_t down_after_ms)
    : rt_(rt), prefix_(std::move(prefix)), down_after_(std::chrono::milliseconds(down_after_ms)) {
  self_ = std::make_shared<Node>(self, inbox(self), true);
  self_->name = std::move(self_name);
  self_->last_seen = Clock::now();
  nodes_.emplace(self, self_);
}

std::string Membership::inbox(NodeId id) const { return prefix_ + ".node." + node_hex(id); }

std::shared_ptr<Node> Membership::node(NodeId id) {
  std::lock_guard lock(mutex_);
  auto& slot = nodes_[id];
  if (!slot) {
    slot = std::make_shared<Node>(id, inbox(id), false);
    slot->last_seen = Clock::now();
  }
  return slot;
}

std::string Membership::name_of(NodeId id) const {
  std::lock_guard lock(mutex_);
  auto it = nodes_.find(id);
  return it == nodes_.end() || it->second->name.empty() ? node_hex(id) : it->second->name;
}

bool Membership::heard(NodeId id, std::string_view name) {
  std::lock_guard lock(mutex_);
  auto& slot = nodes_[id];
  bool fresh = !slot || slot->name.empty();
  if (!slot) slot = std::make_shared<Node>(id, inbox(id), false);
  if (slot->name.empty()) slot->name = std::string(name);
  slot->last_seen = Clock::now();
  return fresh && !slot->is_down();
}

bool Membership::mark_down(NodeId id, bool silent) {
  {
    std::lock_guard lock(mutex_);
    auto it = nodes_.find(id);
    if (it == nodes_.end()) {
      // Never heard of, but gone: remember, so its addresses are dead on arrival.
      it = nodes_.emplace(id, std::make_shared<Node>(id, inbox(id), false)).first;
    }
    if (it->second->self || it->second->is_down()) return false;
    it->second->silent.store(silent, std::memory_order_relaxed);
    if (silent) any_silent_.store(true, std::memory_order_release);
    it->second->down.store(true, std::memory_order_release);
  }
  tell_monitors(id);
  return true;
}

std::vector<NodeId> Membership::expire(Clock::time_point now) {
  std::vector<NodeId> gone;
  {
    std::lock_guard lock(mutex_);
    if (!connected_) return gone;
    for (auto& [id, n] : nodes_)
      if (!n->self && !n->is_down() && now - n->last_seen > down_after_) gone.push_back(id);
  }
  std::vector<NodeId> marked;
  for (NodeId id : gone)
    if (mark_down(id, true)) marked.push_back(id);
  return marked;
}

void Membership::disconnected() {
  std::lock_guard lock(mutex_);
  connected_ = false;
}

void Membership::reconnected() {
  std::lock_guard lock(mutex_);
  connected_ = true;
  // We heard nothing while away, through no fault of theirs: a fresh start.
  auto now = Clock::now();
  for (auto& [id, n] : nodes_) n->last_seen = now;
}

std::vector<std::string> Membership::live_names() const {
  std::vector<std::string> names;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, n] : nodes_)
      if (!n->is_down() && !n->name.empty()) names.push_back(n->name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

void Membership::monitor(const std::shared_ptr<Node>& node, Value cust, Value actor) {
  {
    std::lock_guard lock(mutex_);
    if (!node->is_down()) {
      monitors_.emplace(node->id, std::pair{std::move(cust), std::move(actor)});
      return;
    }
  }
  static const uint32_t down = intern_symbol("down");
  rt_.send(cust, make_pair(Value::symbol(down), std::move(actor)));
}

void Membership::tell_monitors(NodeId id) {
  std::vector<std::pair<Value, Value>> told;
  {
    std::lock_guard lock(mutex_);
    auto [first, last] = monitors_.equal_range(id);
    for (auto it = first; it != last; ++it) told.push_back(std::move(it->second));
    monitors_.erase(first, last);
  }
  static const uint32_t down = intern_symbol("down");
  for (auto& [cust, actor] : told) rt_.send(cust, make_pair(Value::symbol(down), std::move(actor)));
}

void Membership::clear() {
  std::unordered_multimap<NodeId, std::pair<Value, Value>> gone;
  std::lock_guard lock(mutex_);
  gone.swap(monitors_);
}

}  // namespace humus::rt::cluster
