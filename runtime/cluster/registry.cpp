#include "runtime/cluster/registry.hpp"

#include "runtime/runtime.hpp"

namespace humus::rt::cluster {

AddressBook::Reference Registry::reference(Actor& actor) {
  if (actor.foreign()) {
    const ClusterCode& code = ClusterCode::of(actor);
    if (code.kind == ClusterCode::Kind::Topic) return {static_cast<const TopicCode&>(code).topic.name, {}};
    return {std::nullopt, static_cast<const RemoteCode&>(code).address};
  }
  ActorAddress a;
  a.node = members_.self()->id;
  std::lock_guard lock(mutex_);
  auto it = tokens_.find(&actor);
  if (it != tokens_.end()) {
    a.token = it->second;
    return {std::nullopt, a};
  }
  a.token = random_token();
  exports_.emplace(a.token, Value::share(&actor));
  tokens_.emplace(&actor, a.token);
  return {std::nullopt, a};
}

Value Registry::resolve(const ActorAddress& address) {
  if (address.node == members_.self()->id) return exported(address.token);
  if (address.node == 0) return Value();
  std::shared_ptr<Node> node = members_.node(address.node);
  std::lock_guard lock(mutex_);
  auto it = proxies_.find(address);
  if (it != proxies_.end()) return it->second;
  const RemoteCode& code = codes_.emplace_back(address, std::move(node));
  Value proxy = rt_.new_foreign_actor(code);
  proxies_.emplace(address, proxy);
  return proxy;
}

Value Registry::resolve_topic(std::string_view name) { return topics_.topic(name).actor; }

Value Registry::exported(const Token& token) {
  std::lock_guard lock(mutex_);
  auto it = exports_.find(token);
  return it == exports_.end() ? Value() : it->second;
}

const std::shared_ptr<Node>* Registry::node_of(const Actor& actor) {
  if (!actor.foreign()) return nullptr;
  const ClusterCode& code = ClusterCode::of(actor);
  if (code.kind != ClusterCode::Kind::Remote) return nullptr;
  return &static_cast<const RemoteCode&>(code).node;
}

void Registry::clear() {
  std::unordered_map<Token, Value, TokenHash> exports;
  std::unordered_map<ActorAddress, Value, AddressHash> proxies;
  std::lock_guard lock(mutex_);
  exports.swap(exports_);
  proxies.swap(proxies_);
  tokens_.clear();
}

}  // namespace humus::rt::cluster
