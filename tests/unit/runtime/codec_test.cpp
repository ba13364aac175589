// Values on the wire (runtime/cluster/codec.hpp): what goes out comes back
// equal, whatever its size or shape; what cannot cross says so; and bad
// bytes are an error message, never a crash.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "runtime/actor.hpp"
#include "runtime/builtins/functions.hpp"
#include "runtime/cluster/codec.hpp"
#include "runtime/cluster/wire.hpp"
#include "runtime/equality.hpp"
#include "runtime/packed.hpp"
#include "runtime/print.hpp"
#include "runtime/symbols.hpp"
#include "value_helpers.hpp"

using namespace humus::rt;
using namespace humus::rt::cluster;
using humus::rt::test::I;
using humus::rt::test::list;
using humus::rt::test::range_list;
using humus::rt::test::Z;

namespace {

// Actors by number: actor @n has the token whose first byte is n.
struct Book final : AddressBook {
  std::map<uint8_t, Value> actors;
  Reference reference(Actor& a) override {
    Reference r;
    r.address.node = 42;
    r.address.token.bytes[0] = uint8_t(a.id());
    actors[uint8_t(a.id())] = Value::share(&a);
    return r;
  }
  Value resolve(const ActorAddress& a) override {
    if (a.node != 42) return Value();
    auto it = actors.find(a.token.bytes[0]);
    return it == actors.end() ? Value() : it->second;
  }
  Value resolve_topic(std::string_view) override { return Value(); }
};

Value roundtrip(const Value& v, Book& book) {
  std::string bytes;
  encode_value(bytes, v, book);
  size_t off = 0;
  std::string error;
  Value back = decode_value(bytes.data(), bytes.size(), off, book, error);
  CHECK(error == "");
  CHECK(off == bytes.size());
  return back;
}

std::string decode_error(const std::string& bytes) {
  Book book;
  size_t off = 0;
  std::string error;
  Value v = decode_value(bytes.data(), bytes.size(), off, book, error);
  CHECK(v.empty());
  return error;
}

Value sym(const char* s) { return Value::symbol(intern_symbol(s)); }

}  // namespace

TEST_CASE("codec: every kind of data comes back equal") {
  Book book;
  Value actor = Value::adopt(new Actor(7));
  Value add = Value::share(builtin_functions()[11]);
  const Value values[] = {
      I(0),
      I(-1),
      I(Value::kSmallMax),
      I(Value::kSmallMin),
      Z("9223372036854775807"),
      Z("-9223372036854775808"),
      Z("18446744073709551615"),
      Z("123456789012345678901234567890123456789"),
      Z("-98765432109876543210"),
      Value::nil(),
      Value::truth(),
      Value::falsity(),
      Value::undefined(),
      sym("ok"),
      sym("with space"),
      list(I(104), I(105)),  // "hi"
      make_pair(I(1), I(2)),
      make_pair(make_pair(I(1), I(2)), I(3)),
      list(list(list(I(1))), Value::nil()),
      actor,
      list(actor, add, sym("x")),
      *str_from_utf8("h\xc3\xa9llo \xe2\x82\xac"),                    // a packed string (runtime/str.hpp)
      make_pair(I(1), *str_from_utf8("tail")),                        // pairs ending in one
      list(*str_from_utf8("a"), *str_from_utf8("\xf0\x9f\x98\x80")),  // in a list
  };
  for (const Value& v : values) {
    CAPTURE(to_string(v));
    Value back = roundtrip(v, book);
    CHECK(equal(back, v));
  }
  CHECK(roundtrip(actor, book).same(actor));  // an actor comes back as itself
}

TEST_CASE("codec: packed lines cross as the list of strings they are") {
  Book book;
  LinesBuilder b;
  for (const char* line : {"one", "", "caf\xc3\xa9", "snow \xe2\x98\x83"}) REQUIRE(b.add(line));
  Value lines = b.finish();
  REQUIRE(lines.is(ObjKind::Lines));
  Value back = roundtrip(lines, book);
  CHECK(equal(back, lines));
  CHECK(to_string(back) == to_string(lines));
}

TEST_CASE("codec: long lists and deep nesting, without recursion") {
  Book book;
  Value big = range_list(1000000);
  CHECK(equal(roundtrip(big, book), big));
  Value deep = Value::nil();  // ((((NIL, 0), 1), 2), ...): heads nest 200000 deep
  for (int i = 0; i < 200000; ++i) deep = make_pair(std::move(deep), I(i));
  CHECK(equal(roundtrip(deep, book), deep));
}

TEST_CASE("codec: functions and blocks do not cross") {
  Book book;
  humus::rt::test::FakeFunction code(SourceLoc{});
  Value f = Value::adopt(Closure::make(&code, 0));
  std::string out;
  try {
    encode_value(out, list(I(1), f), book);
    FAIL("encoded a function");
  } catch (const EncodeError& e) {
    CHECK(e.message.find("a function cannot cross to another node") == 0);
  }
  Native host(
      "sqrt", [](const Value&) { return Value::undefined(); }, nullptr);
  host.make_immortal();
  try {
    encode_value(out, Value::share(&host), book);
    FAIL("encoded a host function");
  } catch (const EncodeError& e) {
    CHECK(e.message == "a host function cannot cross to another node: \\<sqrt>");
  }
}

TEST_CASE("codec: a packed string travels as its text and comes back packed") {
  Book book;
  Value s = *str_from_utf8("packed");
  std::string bytes;
  encode_value(bytes, s, book);
  CHECK(bytes.size() < 12);  // the text and a few bytes of framing, not an array of numbers
  Value back = roundtrip(s, book);
  CHECK(back.is_str());
  CHECK(equal(back, s));
}

TEST_CASE("codec: bad bytes are errors") {
  using namespace std::string_literals;
  CHECK(decode_error("") == "truncated input");
  CHECK(decode_error("\x92\x01"s) == "truncated input");  // array of 2, one item
  CHECK(decode_error("\xca\x00\x00\x00\x00"s) == "a floating-point number (Humus has none)");
  CHECK(decode_error("\x81\x01\x02"s) == "a map where a value belongs");
  CHECK(decode_error("\xc4\x01\x00"s) == "binary data where a value belongs");
  CHECK(decode_error("\x91\x01"s) == "an array of 1 items (a chain of pairs has at least 2)");
  CHECK(decode_error("\x90"s) == "an array of 0 items (a chain of pairs has at least 2)");
  CHECK(decode_error("\xc1"s) == "malformed MessagePack");
  CHECK(decode_error("\xd4\x63\x00"s) == "an unknown extension type 99");
  CHECK(decode_error("\xd4\x03\x00"s) == "a malformed actor address (1 bytes)");
  CHECK(decode_error("\xd4\x02\x00"s) == "a malformed ? (extension 2 with a body)");
  CHECK(decode_error("\xd4\x01\x02"s) == "a malformed big integer");
  CHECK(decode_error("\xd4\x04x"s) == "an unknown built-in function");
  CHECK(decode_error("\xc7\x00\x06"s) == "an empty string extension (the empty string is NIL)");
  CHECK(decode_error("\xd4\x06\xff"s) == "a string that is not UTF-8");
  // A topic where the book reaches none (fuzz_decode found it put an empty value in the message).
  CHECK(decode_error("\x92\x01\xd5\x05tt"s) == "a topic where none can be reached");
  CHECK(decode_error("\xa0"s) == "a symbol name of 0 bytes");
  std::string long_name = "\xda\x08\x00"s + std::string(2048, 'a');
  CHECK(decode_error(long_name) == "a symbol name of 2048 bytes");
  // An actor address nobody here has.
  std::string unknown = "\xc7\x18\x03"s + std::string(24, '\x01');
  CHECK(decode_error(unknown) == "an unknown actor (no actor of this node has that address)");
  // A huge array count with nothing behind it: no allocation for it, just truncated.
  CHECK(decode_error("\xdd\xff\xff\xff\xff\x01"s) == "truncated input");
}

TEST_CASE("codec: tokens and headers") {
  Token t = random_token();
  std::string bytes;
  encode_token(bytes, t);
  wire::put_heartbeat(bytes, 77, "node-a", true);
  size_t off = 0;
  std::string error;
  Token back;
  REQUIRE(decode_token(bytes.data(), bytes.size(), off, back, error));
  CHECK(back == t);
  wire::Header h;
  REQUIRE(wire::read_header(bytes.data(), bytes.size(), off, h, error));
  CHECK(h.kind == wire::Kind::Heartbeat);
  CHECK(h.from == 77);
  CHECK(h.name == "node-a");
  CHECK(h.first);
  CHECK(off == bytes.size());
  off = 0;
  std::string junk = "\x93\x01\xa3xyz\x05";
  CHECK_FALSE(wire::read_header(junk.data(), junk.size(), off, h, error));
  CHECK(error.find("a malformed header") == 0);
  off = 0;
  CHECK_FALSE(decode_token(junk.data(), junk.size(), off, back, error));
  CHECK(error == "a malformed message target");
}

TEST_CASE("codec: random tokens differ") {
  CHECK_FALSE(random_token() == random_token());
  CHECK(random_node_id() != 0);
  CHECK(node_hex(0x1234) == "0000000000001234");
}
