#define MSGPACK_NO_BOOST 1
#include "runtime/cluster/wire.hpp"

#include <msgpack/object.hpp>
#include <msgpack/pack.hpp>
#include <msgpack/unpack.hpp>

#include "runtime/cluster/codec.hpp"

namespace humus::rt::cluster::wire {

namespace {

// 2: chunks of messages are numbered and acknowledged ("m" with seq, "ack", "skip").
constexpr uint64_t kVersion = 2;

struct Sink {
  std::string& out;
  void write(const char* p, size_t n) { out.append(p, n); }
};

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Messages:
      return "m";
    case Kind::Heartbeat:
      return "hb";
    case Kind::Bye:
      return "bye";
    case Kind::Publish:
      return "pub";
    case Kind::Names:
      return "names";
    case Kind::Ack:
      return "ack";
    case Kind::Skip:
      return "skip";
    case Kind::Down:
      return "down";
  }
  return "?";
}

void pack_text(msgpack::packer<Sink>& pk, std::string_view s) {
  pk.pack_str(uint32_t(s.size()));
  pk.pack_str_body(s.data(), uint32_t(s.size()));
}

void start(msgpack::packer<Sink>& pk, uint32_t fields, Kind kind, NodeId from) {
  pk.pack_array(fields);
  pk.pack_uint64(kVersion);
  pack_text(pk, kind_name(kind));
  pk.pack_uint64(from);
}

bool text(const msgpack::object& o, std::string& out) {
  if (o.type != msgpack::type::STR || o.via.str.size > kMaxNameBytes) return false;
  out.assign(o.via.str.ptr, o.via.str.size);
  return true;
}

bool unsigned_int(const msgpack::object& o, uint64_t& out) {
  if (o.type != msgpack::type::POSITIVE_INTEGER) return false;
  out = o.via.u64;
  return true;
}

// Small, flat objects only: headers never nest.
const msgpack::unpack_limit kLimits(16, 0, kMaxNameBytes, 0, 0, 2);

}  // namespace

void put_header(std::string& out, Kind kind, NodeId from) {
  Sink s{out};
  msgpack::packer<Sink> pk(s);
  start(pk, 3, kind, from);
}

void put_messages_header(std::string& out, NodeId from) {
  Sink s{out};
  msgpack::packer<Sink> pk(s);
  start(pk, 4, Kind::Messages, from);
  pk.pack_fix_uint64(0);  // always 9 bytes: set_seq writes the last 8
}

void set_seq(std::string& chunk, size_t header_bytes, uint64_t seq) {
  for (size_t i = 0; i < 8; ++i) chunk[header_bytes - 1 - i] = char((seq >> (8 * i)) & 0xff);
}

void put_ack(std::string& out, NodeId from, uint64_t next, bool resend) {
  Sink s{out};
  msgpack::packer<Sink> pk(s);
  start(pk, 5, Kind::Ack, from);
  pk.pack_uint64(next);
  if (resend)
    pk.pack_true();
  else
    pk.pack_false();
}

void put_skip(std::string& out, NodeId from, uint64_t to) {
  Sink s{out};
  msgpack::packer<Sink> pk(s);
  start(pk, 4, Kind::Skip, from);
  pk.pack_uint64(to);
}

void put_heartbeat(std::string& out, NodeId from, std::string_view node_name, bool first) {
  Sink s{out};
  msgpack::packer<Sink> pk(s);
  start(pk, 5, Kind::Heartbeat, from);
  pack_text(pk, node_name);
  if (first)
    pk.pack_true();
  else
    pk.pack_false();
}

void put_publish(std::string& out, NodeId from, std::string_view name, uint64_t stamp) {
  Sink s{out};
  msgpack::packer<Sink> pk(s);
  start(pk, 5, Kind::Publish, from);
  pack_text(pk, name);
  pk.pack_uint64(stamp);
}

void put_name_entry(std::string& out, std::string_view name, uint64_t stamp) {
  Sink s{out};
  msgpack::packer<Sink> pk(s);
  pk.pack_array(2);
  pack_text(pk, name);
  pk.pack_uint64(stamp);
}

bool read_header(const char* data, size_t len, size_t& off, Header& h, std::string& error) {
  try {
    msgpack::object_handle oh = msgpack::unpack(data, len, off, nullptr, nullptr, kLimits);
    const msgpack::object& o = oh.get();
    if (o.type != msgpack::type::ARRAY || o.via.array.size < 3) throw std::runtime_error("not a header");
    const msgpack::object* f = o.via.array.ptr;
    uint64_t version = 0;
    std::string kind;
    if (!unsigned_int(f[0], version) || version != kVersion) throw std::runtime_error("unknown protocol version");
    if (!text(f[1], kind) || !unsigned_int(f[2], h.from) || h.from == 0) throw std::runtime_error("bad header");
    const uint32_t n = o.via.array.size;
    if (kind == "m" && n == 4 && unsigned_int(f[3], h.seq) && h.seq != 0) {
      h.kind = Kind::Messages;
    } else if (kind == "ack" && n == 5 && unsigned_int(f[3], h.seq) && f[4].type == msgpack::type::BOOLEAN) {
      h.kind = Kind::Ack;
      h.resend = f[4].via.boolean;
    } else if (kind == "skip" && n == 4 && unsigned_int(f[3], h.seq)) {
      h.kind = Kind::Skip;
    } else if (kind == "bye" && n == 3) {
      h.kind = Kind::Bye;
    } else if (kind == "names" && n == 3) {
      h.kind = Kind::Names;
    } else if (kind == "down" && n == 3) {
      h.kind = Kind::Down;
    } else if (kind == "hb" && n == 5 && text(f[3], h.name) && f[4].type == msgpack::type::BOOLEAN) {
      h.kind = Kind::Heartbeat;
      h.first = f[4].via.boolean;
    } else if (kind == "pub" && n == 5 && text(f[3], h.name) && unsigned_int(f[4], h.stamp)) {
      h.kind = Kind::Publish;
    } else {
      throw std::runtime_error("unknown message kind");
    }
    return true;
  } catch (const std::exception& e) {
    error = std::string("a malformed header (") + e.what() + ")";
    return false;
  }
}

bool read_name_entry(const char* data, size_t len, size_t& off, std::string& name, uint64_t& stamp,
                     std::string& error) {
  try {
    msgpack::object_handle oh = msgpack::unpack(data, len, off, nullptr, nullptr, kLimits);
    const msgpack::object& o = oh.get();
    if (o.type == msgpack::type::ARRAY && o.via.array.size == 2 && text(o.via.array.ptr[0], name) &&
        unsigned_int(o.via.array.ptr[1], stamp))
      return true;
    error = "a malformed name entry";
  } catch (const std::exception& e) {
    error = std::string("a malformed name entry (") + e.what() + ")";
  }
  return false;
}

}  // namespace humus::rt::cluster::wire
