// Which actor an address names, in both directions (the codec's AddressBook).
//
// Exports: a local actor sent to another node gets a random token, once;
// the table keeps it alive from then on, since this node cannot know when
// the last remote reference goes (there is no distributed garbage
// collection: see docs/distribution.md). Proxies: an address of another
// node becomes one local foreign actor, the same one every time, so
// equality of actors works across nodes (a worker that comes back is `eq`
// to the one registered before).
#pragma once

#include <deque>
#include <mutex>
#include <unordered_map>

#include "runtime/cluster/codec.hpp"
#include "runtime/cluster/foreign_codes.hpp"
#include "runtime/cluster/membership.hpp"
#include "runtime/cluster/topics.hpp"

namespace humus::rt::cluster {

class Registry final : public AddressBook {
 public:
  Registry(Runtime& rt, Membership& members, TopicStore& topics) : rt_(rt), members_(members), topics_(topics) {}

  Reference reference(Actor& actor) override;
  Value resolve(const ActorAddress& address) override;
  Value resolve_topic(std::string_view name) override;

  // The local actor exported under `token`; empty if none.
  Value exported(const Token& token);
  // The node an actor lives on (null for a local actor or a topic).
  static const std::shared_ptr<Node>* node_of(const Actor& actor);
  void clear();  // forgets every actor (when stopping)

 private:
  Runtime& rt_;
  Membership& members_;
  TopicStore& topics_;
  std::mutex mutex_;
  std::unordered_map<Token, Value, TokenHash> exports_;
  std::unordered_map<const Actor*, Token> tokens_;
  std::unordered_map<ActorAddress, Value, AddressHash> proxies_;
  std::deque<RemoteCode> codes_;  // the proxies' behaviors; they live as long as this table
};

// An AddressBook for checking that a value can cross, without exporting
// anything (the memory topic store keeps values as they are).
class CheckingBook final : public AddressBook {
 public:
  Reference reference(Actor&) override { return {}; }
  Value resolve(const ActorAddress&) override { return Value(); }
  Value resolve_topic(std::string_view) override { return Value(); }
};

}  // namespace humus::rt::cluster
