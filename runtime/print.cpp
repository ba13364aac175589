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
#include "runtime/packed.hpp"
#include "runtime/str.hpp"
#include "runtime/symbols.hpp"
#include "runtime/text.hpp"

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

// A function, block or actor as a diagnostic shows it (PrintLimit::readable).
bool print_readable(std::string& out, Object* o) {
  switch (o->kind) {
    case ObjKind::Actor:
      out += actor_label(*static_cast<Actor*>(o));
      return true;
    case ObjKind::Closure: {
      const FunctionCode* code = static_cast<Closure*>(o)->code;
      if (!code) return false;
      out += "<function ";
      if (!code->name.empty()) {
        out += code->name;
        out += ' ';
      }
      out += "at ";
      append_loc(out, code->loc);
      out += '>';
      return true;
    }
    case ObjKind::Block: {
      auto* b = static_cast<BlockValue*>(o);
      if (!b->code) return false;
      out += "<block at ";
      append_loc(out, b->code->loc);
      out += '>';
      return true;
    }
    case ObjKind::Native:
      out += "<built-in function ";
      out += static_cast<Native*>(o)->name;
      out += '>';
      return true;
    default:
      return false;
  }
}

// Everything but a pair.
void print_atom(std::string& out, const Value& v, bool readable) {
  if (v.is_small()) return append_integer(out, v);
  if (v.is_object()) {
    Object* o = v.object();
    if (readable && print_readable(out, o)) return;
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
      case ObjKind::Map:
      case ObjKind::MapTrie:
      case ObjKind::Lines:
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

// Counting what an elided value leaves out walks the rest of it, at most
// this many steps: a value that shares its parts can be exponentially
// larger than the memory it takes.
constexpr uint64_t kCountBudget = 10'000'000;

// The elements (atoms) from `here` on and of the chains on `stack`, up to the budget.
uint64_t count_rest(const ListCursor& here, const std::vector<ListCursor>& stack, bool& over) {
  std::vector<ListCursor> todo(stack);
  todo.push_back(here);
  uint64_t n = 0;
  while (!todo.empty()) {
    ListCursor c = todo.back();
    todo.pop_back();
    for (; c.at_pair(); c.next()) {
      if (const Str* s = c.str()) {  // a packed string's code points at once
        n += s->length - c.index();
        c.skip_str();
        break;
      }
      const Value& h = c.head();
      if (h.is_cons())
        todo.emplace_back(h);
      else
        ++n;
      if (n >= kCountBudget) {
        over = true;
        return n;
      }
    }
    ++n;  // what ends the chain
  }
  return n;
}

// An atom with at most `room` bytes of text (room > 0): a longer integer
// is described by its size in bits (printing it would cost its full conversion), a
// longer symbol is cut.
void print_atom_within(std::string& out, const Value& v, uint64_t room, bool readable) {
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
  print_atom(out, v, readable);
  if (out.size() - start > room) {
    size_t cut = start + size_t(room);
    while (cut > start && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8 characters
    out.resize(cut);
    out += "...";
  }
}

// A packed string as a person reads it (PrintLimit::readable): "like this",
// with quotes, backslashes and control characters escaped, at most `room`
// code points.
void print_quoted(std::string& out, const Str& s, uint64_t room) {
  out += '"';
  const uint32_t n = uint32_t(std::min<uint64_t>(s.length, room));
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t cp = s.at(i);
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += char(cp);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp < 0x20 || cp == 0x7F) {
      out += "\\u{";
      append_uint(out, cp);
      out += '}';
    } else {
      append_utf8(out, cp);
    }
  }
  if (n < s.length) out += "...";
  out += '"';
}

}  // namespace

void print_value(std::string& out, const Value& root, const PrintLimit& limit) {
  const bool bounded = limit.elements != 0 || limit.bytes != 0;
  const uint64_t max_elements = limit.elements ? limit.elements : UINT64_MAX;
  const uint64_t max_bytes = limit.bytes ? limit.bytes : UINT64_MAX;
  const size_t start = out.size();
  uint64_t shown = 0;
  // The chains to resume after a parenthesized head; cursors read pairs and
  // packed values alike (packed.hpp).
  std::vector<ListCursor> stack;
  ListCursor c(root);
  // Before each element: stop when a bound is reached and more is to come.
  auto stop_here = [&]() {
    if (!bounded) return false;
    const uint64_t used = out.size() - start;
    if (shown < max_elements && used < max_bytes) return false;
    bool over = false;
    const uint64_t rest = count_rest(c, stack, over);
    out += "... (";
    if (over) out += "over ";
    append_uint(out, rest);
    out += " more)";
    return true;
  };
  auto atom = [&](const Value& a) {
    if (bounded)
      print_atom_within(out, a, std::max<uint64_t>(64, max_bytes - std::min(max_bytes, uint64_t(out.size() - start))),
                        limit.readable);
    else
      print_atom(out, a, limit.readable);
    ++shown;
  };
  const uint64_t string_room = limit.bytes ? limit.bytes : UINT64_MAX;
  if (limit.readable && root.is_str()) return print_quoted(out, *root.as<Str>(), string_room);
  for (;;) {
    // Print the chain from c on.
    while (c.at_pair()) {
      if (stop_here()) return;
      const Value& h = c.head();
      if (limit.readable && h.is_str()) {
        print_quoted(out, *h.as<Str>(), string_room - std::min<uint64_t>(string_room, out.size() - start));
        ++shown;
        out += ", ";
        c.next();
        continue;
      }
      if (h.is_cons()) {
        out += '(';
        ListCursor after = c;
        after.next();
        stack.push_back(after);
        c = ListCursor(h);  // print the head's chain now, resume after ')'
        continue;
      }
      atom(h);
      out += ", ";
      c.next();
    }
    if (stop_here()) return;
    atom(c.rest());
    if (stack.empty()) return;
    out += "), ";
    c = stack.back();
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
  if (a.id() == 0 && !out.empty()) return out;  // a built-in actor without a number (stdin, files, ...)
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
