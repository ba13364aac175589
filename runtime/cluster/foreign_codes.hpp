// The behaviors of the cluster's foreign actors (runtime/foreign.hpp): what
// a proxy of a remote actor, or a topic's actor, stands for. Set once, when
// the actor is made, and never changed, so any thread may read them.
#pragma once

#include <memory>

#include "runtime/actor.hpp"
#include "runtime/cluster/address.hpp"
#include "runtime/cluster/node.hpp"
#include "runtime/code.hpp"
#include "runtime/foreign.hpp"

namespace humus::rt::cluster {

struct Topic;

class ClusterCode : public ForeignCode {
 public:
  enum class Kind { Remote, Topic };
  explicit ClusterCode(Kind k) : kind(k) {}
  const Kind kind;

  // What a foreign actor's behavior is (precondition: actor.foreign()).
  static const ClusterCode& of(const Actor& actor) {
    return static_cast<const ClusterCode&>(*actor.behavior.as<Closure>()->code);
  }
};

// A proxy: the local stand-in for an actor of another node.
class RemoteCode final : public ClusterCode {
 public:
  RemoteCode(ActorAddress a, std::shared_ptr<Node> n) : ClusterCode(Kind::Remote), address(a), node(std::move(n)) {}
  const ActorAddress address;
  const std::shared_ptr<Node> node;
};

class TopicCode final : public ClusterCode {
 public:
  explicit TopicCode(Topic& t) : ClusterCode(Kind::Topic), topic(t) {}
  Topic& topic;
};

}  // namespace humus::rt::cluster
