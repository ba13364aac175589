// A worker's outbox: what its committed events send to other nodes, until
// the end of the actor's turn (then Cluster::flush publishes it), and what
// the event being committed sends to topics, until its release.
//
// Messages to one node go into chunks of up to kChunkBytes, each a NATS
// message of its own with a header ("m", wire.hpp) and (token, value)
// pairs; a turn that sends a thousand messages to a node makes one or a few
// publishes, not a thousand.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "runtime/cluster/node.hpp"
#include "runtime/cluster/topics.hpp"
#include "runtime/foreign.hpp"

namespace humus::rt::cluster {

struct Outbox final : ContextState {
  static constexpr size_t kChunkBytes = 256 * 1024;
  // A chunk's most bytes: kChunkBytes, or less when the broker takes less
  // (its max_payload; Cluster::outbox sets it).
  size_t chunk_bytes = kChunkBytes;

  struct ToNode {
    std::shared_ptr<Node> node;
    std::vector<std::string> chunks;  // each starts with its header
    std::vector<uint64_t> counts;     // messages in each chunk (what is lost if it is)
    uint64_t count = 0;               // messages in the chunks
  };
  std::vector<ToNode> nodes;
  // This event's sends to topics, for Cluster::release.
  std::vector<Append> appends;
  std::vector<Subscription> subscriptions;

  // Where staging started, to undo it when the event fails after all.
  struct Mark {
    size_t chunks, bytes;
    uint64_t count, last_count;
  };
  std::vector<Mark> marks;
  std::string scratch;  // one message being encoded

  ToNode& to(const std::shared_ptr<Node>& node);
  void mark();
  void undo();
  // Adds one encoded message (scratch) to `t`, in a new chunk when the last
  // one is full; `header` starts a chunk.
  void add(ToNode& t, const std::string& header);
};

}  // namespace humus::rt::cluster
