// The modules a document can see: the prelude and what it IMPORTs, found
// by the interpreter's module loader (interpreter/modules.hpp), parsed and
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
#include "interpreter/modules.hpp"

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
  // The same for an IMPORT statement, which may only name a standard-library
  // module or a .hum file in or below `root`, the folder of the document (as
  // when the document runs: interp::ImportRules).
  std::shared_ptr<const Module> find_import(const std::string& name, const std::string& from_dir,
                                            const std::string& root, std::string& why);

 private:
  std::shared_ptr<const Module> load(const std::string& name, const std::optional<interp::ModuleFile>& found,
                                     std::string& why);
  struct Entry {
    int64_t mtime = 0;  // the file's time stamp, in the file clock's units
    uintmax_t size = 0;
    std::shared_ptr<const Module> module;
  };
  std::map<std::string, Entry> cache_;
};

}  // namespace humus::lsp
