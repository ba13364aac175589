// What nodes say to each other, around the values (codec.hpp).
//
// Every NATS message between nodes starts with a header, a msgpack array
// [1, kind, sender node id, ...]; what follows depends on the kind:
//
//   "m"      to a node's inbox: (token, value) pairs, the messages for the
//            actors exported under those tokens, in the order they were sent
//   "hb"     broadcast (or to a new node's inbox): [.., name, first] - alive;
//            `first` asks the others to introduce themselves at once
//   "bye"    broadcast: leaving now
//   "pub"    broadcast: [.., name, stamp] then the actor published
//   "names"  to a new node's inbox: (name, stamp, actor) entries, the names
//            the sender holds
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/cluster/address.hpp"

namespace humus::rt::cluster::wire {

enum class Kind { Messages, Heartbeat, Bye, Publish, Names };

struct Header {
  Kind kind = Kind::Messages;
  NodeId from = 0;
  std::string name;    // Heartbeat: the node's name; Publish: the name published
  bool first = false;  // Heartbeat
  uint64_t stamp = 0;  // Publish
};

void put_header(std::string& out, Kind kind, NodeId from);  // Messages, Bye, Names
void put_heartbeat(std::string& out, NodeId from, std::string_view node_name, bool first);
void put_publish(std::string& out, NodeId from, std::string_view name, uint64_t stamp);
void put_name_entry(std::string& out, std::string_view name, uint64_t stamp);  // then the actor

bool read_header(const char* data, size_t len, size_t& off, Header& h, std::string& error);
bool read_name_entry(const char* data, size_t len, size_t& off, std::string& name, uint64_t& stamp, std::string& error);

}  // namespace humus::rt::cluster::wire
