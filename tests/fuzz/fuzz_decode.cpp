// libFuzzer target: bytes from the wire (runtime/cluster/codec.hpp, wire.hpp).
// Another node, or anyone who can publish on the broker, may send anything:
// decoding must give a value or an error, never crash, leak or hang. A
// value that decodes must encode again and decode to an equal value.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "runtime/actor.hpp"
#include "runtime/cluster/codec.hpp"
#include "runtime/cluster/wire.hpp"
#include "runtime/equality.hpp"

using namespace humus::rt;
using namespace humus::rt::cluster;

namespace {

// Node 1 has actors whose tokens start with 0..3; everything else is unknown.
struct Book final : AddressBook {
  std::map<uint8_t, Value> actors;
  Book() {
    for (uint8_t i = 0; i < 4; ++i) actors[i] = Value::adopt(new Actor(i));
  }
  Reference reference(Actor& a) override {
    Reference r;
    r.address.node = 1;
    r.address.token.bytes[0] = uint8_t(a.id);
    return r;
  }
  Value resolve(const ActorAddress& a) override {
    if (a.node != 1) return Value();
    auto it = actors.find(a.token.bytes[0]);
    return it == actors.end() ? Value() : it->second;
  }
  Value resolve_topic(std::string_view) override { return Value(); }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Book book;
  const char* p = reinterpret_cast<const char*>(data);
  std::string error;
  // As a run of values, as the messages of a batch (token, value)*, and as headers.
  size_t off = 0;
  while (off < size) {
    Value v = decode_value(p, size, off, book, error);
    if (v.empty()) break;
    std::string again;
    encode_value(again, v, book);
    size_t off2 = 0;
    Value back = decode_value(again.data(), again.size(), off2, book, error);
    if (back.empty() || !equal(back, v) || off2 != again.size()) __builtin_trap();
  }
  off = 0;
  Token t;
  while (off < size && decode_token(p, size, off, t, error)) {
    if (decode_value(p, size, off, book, error).empty()) break;
  }
  off = 0;
  wire::Header h;
  if (wire::read_header(p, size, off, h, error) && h.kind == wire::Kind::Names) {
    std::string name;
    uint64_t stamp;
    while (off < size && wire::read_name_entry(p, size, off, name, stamp, error))
      if (decode_value(p, size, off, book, error).empty()) break;
  }
  return 0;
}
