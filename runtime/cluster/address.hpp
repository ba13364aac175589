// Addresses of actors across processes.
//
// A node is one process in the cluster, named by a random 64-bit id drawn
// when it starts (a restarted process is a new node: nothing addressed to
// the old one reaches it). An actor another node may reach has a token of
// 128 random bits from the operating system's generator: its address is
// (node, token). The token is a capability: a node can only send to an
// actor whose address it was given, since guessing one is hopeless.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>

namespace humus::rt::cluster {

using NodeId = uint64_t;

struct Token {
  std::array<uint8_t, 16> bytes{};
  bool operator==(const Token&) const = default;
  // The bytes are random: any 8 of them make a good hash.
  size_t hash() const {
    uint64_t h;
    std::memcpy(&h, bytes.data(), sizeof h);
    return size_t(h);
  }
};

struct ActorAddress {
  NodeId node = 0;
  Token token;
  bool operator==(const ActorAddress&) const = default;
};

struct TokenHash {
  size_t operator()(const Token& t) const { return t.hash(); }
};
struct AddressHash {
  size_t operator()(const ActorAddress& a) const { return a.token.hash() ^ size_t(a.node); }
};

// Random bytes from the kernel (getrandom); aborts if it has none to give.
void random_bytes(void* out, size_t n);
Token random_token();
NodeId random_node_id();  // never 0

// A node id as 16 hex digits (the node's NATS subject), and back.
std::string node_hex(NodeId id);

}  // namespace humus::rt::cluster
