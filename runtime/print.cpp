// Printing (LANGUAGE.md section 11), with an explicit stack instead of recursion.
//
// A pair prints as head ", " tail. Walking down the tails is a plain loop;
// only a head that is itself a pair needs to come back later, to close its
// parenthesis and print the rest of the tail chain, so the stack grows with
// the nesting depth of heads, never with the length of a list.
#include "runtime/print.hpp"

#include <charconv>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/code.hpp"
#include "runtime/integer.hpp"
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
      case ObjKind::BigInt: return append_integer(out, v);
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
      case ObjKind::Pair: break;  // not an atom; callers never pass one
    }
    out += "<pair>";
    return;
  }
  if (v.is_symbol()) {
    out += '#';
    out += symbol_name(v.symbol_id());
    return;
  }
  if (v.is_nil()) out += "NIL";
  else if (v.is_true()) out += "TRUE";
  else if (v.is_false()) out += "FALSE";
  else if (v.is_undefined()) out += '?';
  else out += "<empty>";
}

// Work left for later: the tail chain to resume after a parenthesized head.
// Values are borrowed: the caller's root keeps the whole (immutable) tree alive.
struct Resume {
  const Value* tail;
};

}  // namespace

void print_value(std::string& out, const Value& root) {
  std::vector<Resume> stack;
  const Value* v = &root;
  for (;;) {
    // Print the tail chain starting at *v.
    while (v->is_pair()) {
      const Pair* p = v->as<Pair>();
      if (p->head.is_pair()) {
        out += '(';
        stack.push_back({&p->tail});
        v = &p->head;  // print the head's chain now, resume with the tail after ')'
        continue;
      }
      print_atom(out, p->head);
      out += ", ";
      v = &p->tail;
    }
    print_atom(out, *v);
    if (stack.empty()) return;
    out += "), ";
    v = stack.back().tail;
    stack.pop_back();
  }
}

std::string to_string(const Value& v) {
  std::string s;
  print_value(s, v);
  return s;
}

std::string actor_label(const Actor& a) {
  std::string out;
  if (a.name() != Actor::kNoName) out = symbol_name(a.name());
  out += '@';
  append_uint(out, a.id());
  return out;
}

std::string describe(const Value& v) {
  constexpr size_t kMax = 200;
  std::string s = to_string(v);
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

}  // namespace humus::rt
