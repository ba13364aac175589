// Packed lines: the list of strings that `files` answers to #lines, kept as
// one text and the offsets where its lines begin (packed.hpp).
//
// Why: as pairs of packed strings, each line costs a pair and a string
// header besides its text, about 130 bytes a line for a 57-byte line, and a
// 100 MB file touched 240 MB. Packed, the file costs its text and four bytes
// a line; a program that walks the lines (a CASE, fold, map) takes them a
// chunk at a time (expand), and those pairs and line strings are freed as
// it goes. A line is a slice of the text (str.hpp): while a program keeps
// one line, it keeps the text of the lines packed with it (about 1 MB).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/str.hpp"
#include "runtime/value.hpp"

namespace humus::rt {

struct Lines : Object {
  uint32_t from;   // the first line here: an index into the owner's starts
  uint32_t count;  // lines here, >= 1
  Value base;      // the Lines whose text this one slices, or empty: this one owns it

  // The owner's (read them through owner()):
  Value text;                    // all its lines' code points back to back: a Str, or NIL when all are empty
  std::vector<uint32_t> starts;  // count + 1 code-point offsets into text: line i is [starts[i], starts[i+1])
  Value next;                    // what follows its lines: NIL, or more lines

  Lines() : Object(ObjKind::Lines), from(0), count(0) {}
  const Lines* owner() const { return base.empty() ? this : base.as<Lines>(); }
  // Line i of the owner, as a string (a slice of text; NIL when empty).
  Value line(uint32_t i) const;
  // These lines as pairs, made on first use and kept (under a lock: two
  // threads may ask at once), for C++ walks (ListCursor); the last tail is `next`.
  const Value& items() const;
  Value& items_slot() { return items_; }  // the walks over the object graph (children.hpp)

 private:
  mutable Value items_;  // empty until made
};

// The first (at most kExpandChunk) lines as pairs, the rest still packed.
Value lines_expand(const Value& lines);
// The lines after the first k (k < count): a slice.
Value lines_rest(const Value& lines, uint32_t k);
// The first line.
inline Value lines_first(const Value& lines) { return lines.as<Lines>()->line(lines.as<Lines>()->from); }

// Builds a list of lines a line at a time, packing them about a megabyte of
// text to an owner; finish() gives the list (NIL when no line was added).
class LinesBuilder {
 public:
  // A line's UTF-8 text (without its newline); false when it is not UTF-8.
  bool add(std::string_view utf8);
  // A line known to be ASCII (is_ascii): no check.
  void add_ascii(std::string_view ascii) { push(ascii, Utf8Shape{ascii.size(), false, true}); }
  size_t lines() const { return total_; }
  Value finish();

 private:
  void push(std::string_view utf8, const Utf8Shape& shape);
  void seal();                    // packs the pending lines into an owner
  std::string text_;              // the pending lines' UTF-8, back to back
  std::vector<uint32_t> starts_;  // their code-point offsets (one more than the lines)
  uint64_t code_points_ = 0;
  bool wide_ = false;
  bool ascii_ = true;
  std::vector<Value> owners_;
  size_t total_ = 0;
};

}  // namespace humus::rt
