// The modules a document can see: the prelude and what it IMPORTs, found
// as the interpreter finds them (Interpreter::resolve_module), parsed and
// outlined once, and read again only when the file changes on disk.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "grammar/ast.hpp"
#include "grammar/parser.hpp"
#include "interpreter/lsp/outline.hpp"

namespace humus::lsp {

struct Module {
  std::string path;   // the file, canonical
  std::string shown;  // as messages name it: stdlib/fifo.hum, lib/util.hum
  ast::SourcePtr source;
  Outline outline;                         // empty when it did not parse
  std::optional<parse::Diagnostic> error;  // its syntax error, if any
};

class Modules {
 public:
  // The module `name` as `IMPORT "name"` in a file of folder `from_dir`
  // finds it, or null with the reason in `why`.
  std::shared_ptr<const Module> find(const std::string& name, const std::string& from_dir, std::string& why);

 private:
  struct Entry {
    int64_t mtime = 0;  // the file's time stamp, in the file clock's units
    uintmax_t size = 0;
    std::shared_ptr<const Module> module;
  };
  std::map<std::string, Entry> cache_;
};

}  // namespace humus::lsp
