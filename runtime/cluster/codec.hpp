// Values on the wire: MessagePack (msgpack-c), with extension types.
//
//   integer      msgpack integer; beyond 64 bits ext 1: a sign byte, then
//                the magnitude, big-endian
//   NIL TRUE FALSE   msgpack nil, true, false;  ?  ext 2 (empty)
//   symbol       msgpack str (its name)
//   pairs        a chain (h1, h2, ..., hn, t) with t not a pair is one
//                msgpack array [h1, ..., hn, t] (n >= 1): lists and strings
//                stay flat, however long
//   actor        ext 3: node id (8 bytes, big-endian) and token (16 bytes)
//   topic        ext 5: its name (topics travel by name)
//   built-in function  ext 4: its name (`add`, `eq`, ...)
//   packed string      ext 6: its UTF-8 text (a string made by the runtime,
//                runtime/str.hpp; a list of code points built by a program
//                travels as pairs, and both decode to equal values)
//
// Functions written in Humus, blocks and host functions do not cross: the
// encoder says so with an EncodeError, which fails the sending event.
//
// Both directions are iterative (an explicit stack, no recursion), so a
// ten-million-element list or a deeply nested tree neither overflows the
// stack nor hits a depth limit. The decoder trusts nothing: every way bytes
// can be wrong (truncated, a type we do not use, an array too short, an
// unknown actor) is an error message, never a crash.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/actor.hpp"
#include "runtime/cluster/address.hpp"
#include "runtime/value.hpp"

namespace humus::rt::cluster {

// How the codec names actors: the distribution layer's tables.
class AddressBook {
 public:
  virtual ~AddressBook() = default;
  // A topic's name if `actor` is a topic actor; otherwise its address
  // (exported now if it is local and was not yet).
  struct Reference {
    std::optional<std::string> topic;
    ActorAddress address;
  };
  virtual Reference reference(Actor& actor) = 0;
  // The actor at `address` (a local one, or a proxy for a remote one);
  // empty when this node has no such actor.
  virtual Value resolve(const ActorAddress& address) = 0;
  virtual Value resolve_topic(std::string_view name) = 0;
};

struct EncodeError {
  std::string message;
};

// Appends the encoding of `v` to `out`; throws EncodeError.
void encode_value(std::string& out, const Value& v, AddressBook& book);
// Appends a token as msgpack bin (16 bytes): the target of a message.
void encode_token(std::string& out, const Token& token);

// Reads one value from data[off, len) and moves `off` past it. On bad input
// returns an empty Value and says why in `error`.
Value decode_value(const char* data, size_t len, size_t& off, AddressBook& book, std::string& error);
// Reads a token written by encode_token.
bool decode_token(const char* data, size_t len, size_t& off, Token& token, std::string& error);

// Symbol names and topic names longer than this are rejected on decoding.
constexpr size_t kMaxNameBytes = 1024;

}  // namespace humus::rt::cluster
