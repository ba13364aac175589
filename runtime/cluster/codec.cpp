// Values to MessagePack and back (the format is in codec.hpp).
#define MSGPACK_NO_BOOST 1
#include "runtime/cluster/codec.hpp"

// unpack.hpp first: parse.hpp needs its definitions.
#include <msgpack/null_visitor.hpp>
#include <msgpack/pack.hpp>
#include <msgpack/parse.hpp>
#include <msgpack/unpack.hpp>

#include <algorithm>
#include <cstring>
#include <limits>
#include <vector>

#include "runtime/builtins/functions.hpp"
#include "runtime/code.hpp"
#include "runtime/errors.hpp"
#include "runtime/integer.hpp"
#include "runtime/packed.hpp"
#include "runtime/print.hpp"
#include "runtime/symbols.hpp"
#include "runtime/text.hpp"
#include "runtime/thread_owned.hpp"

namespace humus::rt::cluster {

namespace {

enum Ext : int8_t { kBigInt = 1, kUndefined = 2, kActor = 3, kBuiltin = 4, kTopic = 5, kString = 6 };
constexpr size_t kAddressBytes = 8 + 16;

struct Sink {
  std::string& out;
  void write(const char* p, size_t n) { out.append(p, n); }
};
using Packer = msgpack::packer<Sink>;

void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = uint8_t(v);
}
uint64_t get_u64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}

bool is_builtin(const Native* n) {
  auto all = builtin_functions();
  return std::find(all.begin(), all.end(), n) != all.end();
}

void pack_ext(Packer& pk, Ext type, const void* body, size_t n) {
  pk.pack_ext(n, type);
  pk.pack_ext_body(static_cast<const char*>(body), uint32_t(n));
}

void pack_bigint(Packer& pk, const BigInt& b) {
  std::string body(1 + (mpz_sizeinbase(b.z, 2) + 7) / 8, '\0');
  body[0] = mpz_sgn(b.z) < 0 ? 1 : 0;
  size_t written = 0;
  mpz_export(body.data() + 1, &written, 1, 1, 1, 0, b.z);
  body.resize(1 + written);
  pack_ext(pk, kBigInt, body.data(), body.size());
}

// Everything but a pair.
void pack_atom(Packer& pk, const Value& v, AddressBook& book) {
  if (v.is_small()) return void(pk.pack_int64(v.small_value()));
  if (v.is_symbol()) {
    std::string name = symbol_name(v.symbol_id());
    pk.pack_str(uint32_t(name.size()));
    pk.pack_str_body(name.data(), uint32_t(name.size()));
    return;
  }
  if (v.is_nil()) return void(pk.pack_nil());
  if (v.is_true()) return void(pk.pack_true());
  if (v.is_false()) return void(pk.pack_false());
  if (!v.is_object()) return pack_ext(pk, kUndefined, nullptr, 0);  // ?
  switch (v.object()->kind) {
    case ObjKind::BigInt:
      return pack_bigint(pk, *v.as<BigInt>());
    case ObjKind::Actor: {
      AddressBook::Reference ref = book.reference(*v.as<Actor>());
      if (ref.topic) return pack_ext(pk, kTopic, ref.topic->data(), ref.topic->size());
      uint8_t body[kAddressBytes];
      put_u64(body, ref.address.node);
      std::memcpy(body + 8, ref.address.token.bytes.data(), 16);
      return pack_ext(pk, kActor, body, sizeof body);
    }
    case ObjKind::Native: {
      const auto* n = v.as<Native>();
      if (!is_builtin(n)) throw EncodeError{"a host function cannot cross to another node: " + to_string(v)};
      return pack_ext(pk, kBuiltin, n->name, std::strlen(n->name));
    }
    case ObjKind::Closure:
      throw EncodeError{"a function cannot cross to another node: " + to_string(v) +
                        " (data, actors and built-in functions can)"};
    case ObjKind::Block:
      throw EncodeError{"a block cannot cross to another node: " + to_string(v) +
                        " (data, actors and built-in functions can)"};
    case ObjKind::Str: {  // a packed string (runtime/str.hpp) as its UTF-8 text
      std::optional<std::string> text = string_text(v);
      if (!text || text->size() >= std::numeric_limits<uint32_t>::max())
        throw EncodeError{"a string too long to send (4 GB)"};
      return pack_ext(pk, kString, text->data(), text->size());
    }
    case ObjKind::Envelope:
    case ObjKind::Pair:
    case ObjKind::Map:      // a list of items: encode_value walks it
    case ObjKind::Lines:    // a list of strings: encode_value walks it
    case ObjKind::MapTrie:  // inside maps only
      break;
  }
  throw EncodeError{"internal error: a value of no known kind"};
}

// ------------------------------------------------------------------ decoding

// Builds values bottom-up as the parser reports them: atoms go on `vals`,
// an array's items collect above its frame's base and become a chain of
// pairs at its end. Any false return stops the parser; `error` says why.
class ValueBuilder : public msgpack::null_visitor {
 public:
  // The stacks are the caller's, reused from one value to the next.
  ValueBuilder(AddressBook& book, std::string& error, std::vector<Value>& vals, std::vector<size_t>& frames)
      : book_(book), error_(error), vals_(vals), frames_(frames) {
    vals_.clear();
    frames_.clear();
  }
  ~ValueBuilder() {
    vals_.clear();  // what a failed decoding left
    frames_.clear();
  }

  bool visit_nil() { return put(Value::nil()); }
  bool visit_boolean(bool b) { return put(Value::boolean(b)); }
  bool visit_positive_integer(uint64_t v) {
    if (v <= uint64_t(std::numeric_limits<int64_t>::max())) return put(make_integer(int64_t(v)));
    return put(integer_built_by([&](mpz_ptr z) { mpz_import(z, 1, 1, sizeof v, 0, 0, &v); }));
  }
  bool visit_negative_integer(int64_t v) { return put(make_integer(v)); }
  bool visit_float32(float) { return fail("a floating-point number (Humus has none)"); }
  bool visit_float64(double) { return fail("a floating-point number (Humus has none)"); }
  bool visit_str(const char* p, uint32_t n) {
    if (n == 0 || n > kMaxNameBytes) return fail("a symbol name of " + std::to_string(n) + " bytes");
    return put(Value::symbol(intern_symbol(std::string_view(p, n))));
  }
  bool visit_bin(const char*, uint32_t) { return fail("binary data where a value belongs"); }
  bool visit_ext(const char* p, uint32_t n) {
    if (n == 0) return fail("an extension without a type");
    const auto type = int8_t(p[0]);
    const auto* body = reinterpret_cast<const uint8_t*>(p + 1);
    const size_t len = n - 1;
    switch (type) {
      case kBigInt:
        return big_integer(body, len);
      case kUndefined:
        return len == 0 ? put(Value::undefined()) : fail("a malformed ? (extension 2 with a body)");
      case kActor: {
        if (len != kAddressBytes) return fail("a malformed actor address (" + std::to_string(len) + " bytes)");
        ActorAddress a;
        a.node = get_u64(body);
        std::memcpy(a.token.bytes.data(), body + 8, 16);
        Value actor = book_.resolve(a);
        if (actor.empty()) return fail("an unknown actor (no actor of this node has that address)");
        return put(std::move(actor));
      }
      case kTopic: {
        if (len == 0 || len > kMaxNameBytes) return fail("a topic name of " + std::to_string(len) + " bytes");
        Value topic = book_.resolve_topic(std::string_view(reinterpret_cast<const char*>(body), len));
        // No topics here (a book without them): an error, never an empty value inside a message.
        if (topic.empty()) return fail("a topic where none can be reached");
        return put(std::move(topic));
      }
      case kString: {
        if (len == 0) return fail("an empty string extension (the empty string is NIL)");
        std::optional<Value> str = str_from_utf8(std::string_view(reinterpret_cast<const char*>(body), len));
        if (!str) return fail("a string that is not UTF-8");
        return put(std::move(*str));
      }
      case kBuiltin: {
        std::string_view name(reinterpret_cast<const char*>(body), len);
        for (Native* f : builtin_functions())
          if (name == f->name) return put(Value::share(f));
        return fail("an unknown built-in function");
      }
      default:
        return fail("an unknown extension type " + std::to_string(type));
    }
  }
  bool start_array(uint32_t n) {
    if (n < 2) return fail("an array of " + std::to_string(n) + " items (a chain of pairs has at least 2)");
    frames_.push_back(vals_.size());
    return true;
  }
  bool end_array() {
    // The items of the array are the values above its frame: h1 .. hn, t.
    const size_t base = frames_.back();
    frames_.pop_back();
    Value chain = std::move(vals_.back());
    for (size_t i = vals_.size() - 1; i-- > base;) chain = make_pair(std::move(vals_[i]), std::move(chain));
    vals_.resize(base);
    return put(std::move(chain));
  }
  bool start_map(uint32_t) { return fail("a map where a value belongs"); }
  void parse_error(size_t, size_t) { fail("malformed MessagePack"); }
  void insufficient_bytes(size_t, size_t) { fail("truncated input"); }

  Value take() {
    if (vals_.size() != 1 || !frames_.empty()) return Value();
    return std::move(vals_.back());
  }

 private:
  bool put(Value v) {
    vals_.push_back(std::move(v));
    return true;
  }
  bool fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    return false;
  }
  bool big_integer(const uint8_t* body, size_t len) {
    if (len < 2 || body[0] > 1) return fail("a malformed big integer");
    return put(integer_built_by([&](mpz_ptr z) {
      mpz_import(z, len - 1, 1, 1, 1, 0, body + 1);
      if (body[0] == 1) mpz_neg(z, z);
    }));
  }

  AddressBook& book_;
  std::string& error_;
  std::vector<Value>& vals_;
  std::vector<size_t>& frames_;  // where each open array's items start in vals_
};

// Each thread's stacks for decoding: a steady stream of small messages
// allocates nothing for them. Handed back when a huge value grew them.
struct DecodeStacks {
  std::vector<Value> vals;
  std::vector<size_t> frames;
  void trim() {
    constexpr size_t kKeep = 1 << 12;
    if (vals.capacity() > kKeep) std::vector<Value>().swap(vals);
    if (frames.capacity() > kKeep) std::vector<size_t>().swap(frames);
  }
};
ThreadOwned<DecodeStacks> tl_stacks;  // not a thread_local with a destructor: runtime/thread_owned.hpp

// Accepts exactly one msgpack bin of 16 bytes.
class TokenReader : public msgpack::null_visitor {
 public:
  explicit TokenReader(Token& t) : token_(t) {}
  bool visit_bin(const char* p, uint32_t n) {
    if (n != token_.bytes.size()) return false;
    std::memcpy(token_.bytes.data(), p, n);
    ok_ = true;
    return true;
  }
  // Anything else is not a token.
  bool visit_nil() { return false; }
  bool visit_boolean(bool) { return false; }
  bool visit_positive_integer(uint64_t) { return false; }
  bool visit_negative_integer(int64_t) { return false; }
  bool visit_float32(float) { return false; }
  bool visit_float64(double) { return false; }
  bool visit_str(const char*, uint32_t) { return false; }
  bool visit_ext(const char*, uint32_t) { return false; }
  bool start_array(uint32_t) { return false; }
  bool start_map(uint32_t) { return false; }
  bool ok() const { return ok_; }

 private:
  Token& token_;
  bool ok_ = false;
};

}  // namespace

void encode_value(std::string& out, const Value& v, AddressBook& book) {
  Sink sink{out};
  Packer pk(sink);
  // A chain of pairs being written: where its next head is, and how many
  // heads are left before its final tail. Map nodes are chains too
  // (packed.hpp); a packed string is not followed into: it ends the chain
  // and goes as its text (ext 6), a few bytes where an array would take a
  // number a character.
  struct Chain {
    ListCursor at;
    uint64_t heads;
  };
  std::vector<Chain> stack;
  auto chain_like = [](const Value& x) { return x.is_cons() && !x.is_str(); };
  auto emit = [&](const Value& x) {
    if (!chain_like(x)) return pack_atom(pk, x, book);
    uint64_t n = 0;
    ListCursor c(x);
    while (c.at_pair() && !(c.at_value() && c.rest().is_str())) {
      ++n;
      c.next();
    }
    if (n >= std::numeric_limits<uint32_t>::max()) throw EncodeError{"a list too long to send (4 billion elements)"};
    pk.pack_array(uint32_t(n + 1));
    stack.push_back({ListCursor(x), n});
  };
  emit(v);
  while (!stack.empty()) {
    Chain& c = stack.back();
    if (c.heads == 0) {  // c.at is at the chain's last tail
      const Value& last = c.at.rest();
      stack.pop_back();  // `last` lives in the value, not in the stack
      pack_atom(pk, last, book);
      continue;
    }
    const Value& h = c.at.head();  // never a code point of a Str: strings are not followed into
    c.at.next();
    --c.heads;
    emit(h);  // may push: `c` is not used after this
  }
}

void encode_token(std::string& out, const Token& token) {
  Sink sink{out};
  Packer pk(sink);
  pk.pack_bin(uint32_t(token.bytes.size()));
  pk.pack_bin_body(reinterpret_cast<const char*>(token.bytes.data()), uint32_t(token.bytes.size()));
}

Value decode_value(const char* data, size_t len, size_t& off, AddressBook& book, std::string& error) {
  error.clear();
  if (off >= len) {
    error = "truncated input";
    return Value();
  }
  try {
    Value v;
    {
      DecodeStacks& stacks = tl_stacks.get();
      ValueBuilder builder(book, error, stacks.vals, stacks.frames);
      if (msgpack::parse(data, len, off, builder)) v = builder.take();
    }
    tl_stacks.get().trim();
    if (v.empty() && error.empty()) error = "malformed MessagePack";
    return v;
  } catch (const std::bad_alloc&) {
    error = "out of memory while decoding";
  } catch (const std::exception& e) {
    error = std::string("malformed MessagePack: ") + e.what();
  } catch (const EventError& e) {  // a resource limit, while making a proxy
    error = e.message;
  }
  return Value();
}

bool decode_token(const char* data, size_t len, size_t& off, Token& token, std::string& error) {
  error.clear();
  TokenReader reader(token);
  if (off < len && msgpack::parse(data, len, off, reader) && reader.ok()) return true;
  error = off >= len ? "truncated input" : "a malformed message target";
  return false;
}

}  // namespace humus::rt::cluster
