// Printing (LANGUAGE.md section 11), with an explicit stack instead of recursion.
//
// A pair prints as head ", " tail. Walking down the tails is a plain loop;
// only a head that is itself a pair needs to come back later, to close its
// parenthesis and print the rest of the tail chain, so the stack grows with
// the nesting depth of heads, never with the length of a list.
#include "runtime/print.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/code.hpp"
#include "runtime/integer.hpp"
#include "runtime/str.hpp"
#include "runtime/symbols.hpp"

namespace humus::rt {

namespace {

void append_uint(std::string& out, uint64_t n) {
  char buf[24];
  auto res = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, res.ptr);
}

void append_loc(std::string& out, const SourceLoc& loc) {
  out += loc.file_name();
  out += ':';
  append_uint(out, loc.line);
}

// Everything but a pair.
void print_atom(std::string& out, const Value& v) {
  if (v.is_small()) return append_integer(out, v);
  if (v.is_object()) {
    Object* o = v.object();
    switch (o->kind) {
      case ObjKind::BigInt:
        return append_integer(out, v);
      case ObjKind::Actor:
        out += '@';
        return append_uint(out, static_cast<Actor*>(o)->id());
      case ObjKind::Closure: {
        auto* c = static_cast<Closure*>(o);
        out += '\\';
        if (c->code) return append_loc(out, c->code->loc);
        out += '?';
        return;
      }
      case ObjKind::Block: {
        auto* b = static_cast<BlockValue*>(o);
        out += '[';
        if (b->code)
          append_loc(out, b->code->loc);
        else
          out += '?';
        out += ']';
        return;
      }
      case ObjKind::Native:
        out += "\\<";
        out += static_cast<Native*>(o)->name;
        out += '>';
        return;
      case ObjKind::Envelope:  // unwrapped before any program sees it
      case ObjKind::Pair:
      case ObjKind::Str:
        break;  // not atoms; callers never pass one
    }
    out += "<pair>";
    return;
  }
  if (v.is_symbol()) {
    out += '#';
    out += symbol_name(v.symbol_id());
    return;
  }
  if (v.is_nil())
    out += "NIL";
  else if (v.is_true())
    out += "TRUE";
  else if (v.is_false())
    out += "FALSE";
  else if (v.is_undefined())
    out += '?';
  else
    out += "<empty>";
}

// Work left for later: the tail chain to resume after a parenthesized head.
// Values are borrowed: the caller's root keeps the whole (immutable) tree alive.
struct Resume {
  const Value* tail;
};

// Counting what an elided value leaves out walks the rest of it, at most
// this many steps: a value that shares its parts can be exponentially
// larger than the memory it takes.
constexpr uint64_t kCountBudget = 10'000'000;

// The elements (atoms) of *v and of the tails on `stack`, up to the budget.
uint64_t count_rest(const Value* v, const std::vector<Resume>& stack, bool& over) {
  std::vector<const Value*> todo;
  todo.reserve(stack.size() + 1);
  for (const Resume& r : stack) todo.push_back(r.tail);
  todo.push_back(v);
  uint64_t n = 0;
  while (!todo.empty()) {
    const Value* cur = todo.back();
    todo.pop_back();
    for (; cur->is_pair(); cur = &cur->as<Pair>()->tail) {
      const Value& h = cur->as<Pair>()->head;
      if (h.is_cons())
        todo.push_back(&h);
      else
        ++n;
      if (n >= kCountBudget) {
        over = true;
        return n;
      }
    }
    if (cur->is_str()) n += cur->as<Str>()->length;  // its code points; NIL below
    ++n;
  }
  return n;
}

// An atom with at most `room` bytes of text (room > 0): a longer integer
// is described by its size in bits (printing it would cost its full conversion), a
// longer symbol is cut.
void print_atom_within(std::string& out, const Value& v, uint64_t room) {
  if (v.is_bigint()) {
    // sizeinbase 10 may be one too many; in base 2 it is exact.
    if (mpz_sizeinbase(v.as<BigInt>()->z, 10) > room) {
      out += "<an integer of ";
      append_uint(out, mpz_sizeinbase(v.as<BigInt>()->z, 2));
      out += " bits>";
      return;
    }
  }
  const size_t start = out.size();
  print_atom(out, v);
  if (out.size() - start > room) {
    size_t cut = start + size_t(room);
    while (cut > start && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
    out.resize(cut);
    out += "...";
  }
}

}  // namespace

void print_value(std::string& out, const Value& root, const PrintLimit& limit) {
  const bool bounded = limit.elements != 0 || limit.bytes != 0;
  const uint64_t max_elements = limit.elements ? limit.elements : UINT64_MAX;
  const uint64_t max_bytes = limit.bytes ? limit.bytes : UINT64_MAX;
  const size_t start = out.size();
  uint64_t shown = 0;
  std::vector<Resume> stack;
  const Value* v = &root;
  // Before each element: stop when a bound is reached and more is to come.
  auto stop_here = [&]() {
    if (!bounded) return false;
    const uint64_t used = out.size() - start;
    if (shown < max_elements && used < max_bytes) return false;
    bool over = false;
    const uint64_t rest = count_rest(v, stack, over);
    out += "... (";
    if (over) out += "over ";
    append_uint(out, rest);
    out += " more)";
    return true;
  };
  auto atom = [&](const Value& a) {
    if (bounded)
      print_atom_within(out, a, std::max<uint64_t>(64, max_bytes - std::min(max_bytes, uint64_t(out.size() - start))));
    else
      print_atom(out, a);
    ++shown;
  };
  // A packed string's code points, as a list's (str.hpp); false when a
  // bound cut it short.
  auto packed = [&](const Str* str) {
    for (uint32_t i = 0; i < str->length; ++i) {
      if (bounded && (shown >= max_elements || out.size() - start >= max_bytes)) {
        bool over = false;
        const Value nil = Value::nil();
        const uint64_t rest = uint64_t(str->length - i) + count_rest(&nil, stack, over);
        out += "... (";
        if (over) out += "over ";
        append_uint(out, rest);
        out += " more)";
        return false;
      }
      append_uint(out, str->at(i));
      out += ", ";
      ++shown;
    }
    return true;
  };
  static const Value kNil = Value::nil();
  for (;;) {
    // Print the tail chain starting at *v.
    for (;;) {
      if (v->is_str()) {
        if (!packed(v->as<Str>())) return;
        v = &kNil;
        break;
      }
      if (!v->is_pair()) break;
      const Pair* p = v->as<Pair>();
      if (stop_here()) return;
      if (p->head.is_cons()) {
        out += '(';
        stack.push_back({&p->tail});
        v = &p->head;  // print the head's chain now, resume with the tail after ')'
        continue;
      }
      atom(p->head);
      out += ", ";
      v = &p->tail;
    }
    if (stop_here()) return;
    atom(*v);
    if (stack.empty()) return;
    out += "), ";
    v = stack.back().tail;
    stack.pop_back();
  }
}

std::string to_string(const Value& v, const PrintLimit& limit) {
  std::string s;
  print_value(s, v, limit);
  return s;
}

std::string actor_label(const Actor& a) {
  std::string out;
  if (a.name() != Actor::kNoName) out = symbol_name(a.name());
  out += '@';
  append_uint(out, a.id());
  return out;
}

void cut_text(std::string& s, size_t at) {
  if (s.size() <= at) return;
  while (at > 0 && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;  // not inside a character
  s.resize(at);
  s += "...";
}

}  // namespace humus::rt
