// What nodes say to each other, around the values (codec.hpp).
//
// Every NATS message between nodes starts with a header, a msgpack array
// [1, kind, sender node id, ...]; what follows depends on the kind:
//
//   "m"      to a node's inbox: [.., seq] then (token, value) pairs, the
//            messages for the actors exported under those tokens, in the
//            order they were sent; seq numbers the sender's chunks to this
//            receiver 1, 2, 3... (a fixed 8 bytes, set as the chunk leaves)
//   "ack"    to a sender's inbox: [.., next, resend] - every chunk before
//            `next` arrived; `resend` asks for the chunks from `next` on
//            (the receiver saw a later one: some went missing)
//   "skip"   to a receiver's inbox: [.., to] - the chunks before `to` that
//            did not arrive cannot be sent again (counted lost by the sender)
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

// Down: to a node found down for its silence that is heard from again
// ("you are down here"): it stops (Cluster::declared_down).
enum class Kind { Messages, Heartbeat, Bye, Publish, Names, Ack, Skip, Down };

struct Header {
  Kind kind = Kind::Messages;
  NodeId from = 0;
  std::string name;     // Heartbeat: the node's name; Publish: the name published
  bool first = false;   // Heartbeat
  uint64_t stamp = 0;   // Publish
  uint64_t seq = 0;     // Messages: the chunk's number; Ack: next; Skip: to
  bool resend = false;  // Ack
};

void put_header(std::string& out, Kind kind, NodeId from);  // Bye, Names, Down
// A chunk's header with seq 0; set_seq numbers the chunk that starts with it.
void put_messages_header(std::string& out, NodeId from);
void set_seq(std::string& chunk, size_t header_bytes, uint64_t seq);
void put_ack(std::string& out, NodeId from, uint64_t next, bool resend);
void put_skip(std::string& out, NodeId from, uint64_t to);
void put_heartbeat(std::string& out, NodeId from, std::string_view node_name, bool first);
void put_publish(std::string& out, NodeId from, std::string_view name, uint64_t stamp);
void put_name_entry(std::string& out, std::string_view name, uint64_t stamp);  // then the actor

bool read_header(const char* data, size_t len, size_t& off, Header& h, std::string& error);
bool read_name_entry(const char* data, size_t len, size_t& off, std::string& name, uint64_t& stamp, std::string& error);

}  // namespace humus::rt::cluster::wire
