// Names published cluster-wide (#publish, #lookup).
//
// Every node keeps the whole table: a publication is broadcast to all, and
// a node that joins gets each node's own names from it. A name is held by
// the newest publication (stamp, then node id, decide between two nodes
// publishing one name at once); when its node goes down the name is free
// again, and lookups wait for the next publication. A lookup of a name not
// (yet) published waits for it: it is answered when the name arrives.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/cluster/address.hpp"
#include "runtime/value.hpp"

namespace humus::rt {
class Runtime;
}

namespace humus::rt::cluster {

class Names {
 public:
  explicit Names(Runtime& rt) : rt_(rt) {}

  struct Entry {
    Value actor;
    uint64_t stamp = 0;
    NodeId owner = 0;
  };
  // A publication (ours or another node's): true if it holds the name now.
  // Waiting lookups of the name are answered.
  bool learn(const std::string& name, Entry entry);
  // The actor published as `name`, or empty: then `cust` gets it when it is published.
  Value lookup(const std::string& name, const Value& cust);
  // The names `owner` holds (what a joining node is told).
  std::vector<std::pair<std::string, Entry>> held_by(NodeId owner) const;
  void forget(NodeId owner);  // its node is down
  void clear();

 private:
  Runtime& rt_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Entry> table_;
  std::unordered_multimap<std::string, Value> waiting_;  // name -> cust
};

// A stamp for a publication made now: later publications get larger ones.
uint64_t publication_stamp();

}  // namespace humus::rt::cluster
