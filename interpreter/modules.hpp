// The module loader (LANGUAGE.md section 10): where `IMPORT "name"` leads,
// whether the program may read it, and its text. One set of rules and of
// messages for everything that follows an IMPORT: a run
// (Interpreter::import), the name check that reads modules ahead
// (name_check.cpp) and the language server (lsp/modules.cpp).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "interpreter/read_source.hpp"

namespace humus::interp {

// A module found: which file, and how messages name it.
struct ModuleFile {
  std::string path;     // canonical when it can be made so: a module's identity (imported once)
  std::string file;     // the path as found, which messages about reading it name
  std::string shown;    // as messages name it: stdlib/fifo.hum, lib/util.hum
  std::string dir;      // its folder: the module's own relative IMPORTs start there
  bool stdlib = false;  // a standard-library module (parsed as library code)
};

// Who asks. An IMPORT statement in Humus code may only name a
// standard-library module, or a relative path to a .hum file in or below
// `root` (the folder of the script the run began with; empty: the importing
// folder itself); with `sandbox`, standard-library modules only. A host's
// import (statement = false) may name any file.
struct ImportRules {
  bool statement = true;
  std::filesystem::path root;
  bool sandbox = false;
};

// A name without '/' and without ".hum" names a standard-library module,
// searched in each folder of $HUMUS_PATH (colon-separated), then
// <dir of the executable>/../share/humus/stdlib, then the source tree's
// stdlib/; any other name is a path relative to the importing folder.
bool is_stdlib_module(const std::string& name);

// Finds module `name` for an IMPORT in a file of folder `from_dir` ("": the
// current directory), or null with the message in `why` (refused, or not
// found: "cannot find module 'x.hum' (no file x.hum)").
std::optional<ModuleFile> find_module(const std::string& name, const std::string& from_dir, const ImportRules& rules,
                                      std::string& why);

// Reads the module found for `name` (a regular file only, within
// `limits`): a Source named m.shown, or the reason in `error` ("cannot read
// module 'x.hum': ...") and `limit`.
ReadResult read_module(const std::string& name, const ModuleFile& m, const ReadLimits& limits = {});

// Why the rules refuse `name` from `from_dir`, or "" when they allow it
// (refused before it is opened, so an error message can never show a line
// of a file the program had no business reading).
std::string import_refusal(const std::string& name, const std::string& from_dir, const ImportRules& rules);

// Where `name` resolves to from `from_dir` (canonical), or "" when it is
// not found; `searched` lists the places tried. For tests and tools.
std::string resolve_module(const std::string& name, const std::string& from_dir, std::string* searched = nullptr);

// The folder a source's relative IMPORTs start from: its file's folder, or
// "" (the current directory) for -e, standard input and the REPL ("<...>").
std::string folder_of(const std::string& source_name);

// "import cycle: a.hum -> b.hum -> a.hum": `chain` is the modules being
// imported from the first of the cycle on, each followed by " -> ".
std::string import_cycle_message(const std::string& chain, const std::string& again);

}  // namespace humus::interp
