#include "interpreter/modules.hpp"

#include <cstdlib>
#include <utility>
#include <vector>

namespace humus::interp {

namespace fs = std::filesystem;

namespace {

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// The standard library's folders, in search order: $HUMUS_PATH, the installed
// folder beside the executable, the source tree's.
std::vector<std::pair<fs::path, bool>> stdlib_dirs() {  // (folder, from HUMUS_PATH)
  std::vector<std::pair<fs::path, bool>> dirs;
  if (const char* env = std::getenv("HUMUS_PATH")) {
    std::string all = env;
    size_t start = 0;
    while (start <= all.size()) {
      size_t end = all.find(':', start);
      if (end == std::string::npos) end = all.size();
      if (end > start) dirs.emplace_back(all.substr(start, end - start), true);
      start = end + 1;
    }
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.emplace_back(exe.parent_path() / ".." / "share" / "humus" / "stdlib", false);
#ifdef HUMUS_INSTALLED_STDLIB_DIR  // the install prefix's, for library hosts (embedding)
  dirs.emplace_back(HUMUS_INSTALLED_STDLIB_DIR, false);
#endif
#ifdef HUMUS_STDLIB_DIR
  dirs.emplace_back(HUMUS_STDLIB_DIR, false);
#endif
  return dirs;
}

// Resolves `name`: the file to read and the name diagnostics show for it
// (the standard library's own modules show as stdlib/NAME.hum, so messages
// do not depend on where it is installed).
bool resolve(const std::string& name, const std::string& from_dir, fs::path& file, std::string& shown,
             std::string& searched) {
  if (is_stdlib_module(name)) {
    for (const auto& [dir, from_env] : stdlib_dirs()) {
      fs::path p = dir / (name + ".hum");
      if (!searched.empty()) searched += ", ";
      searched += dir.lexically_normal().string();
      if (is_file(p)) {
        file = p;
        shown = from_env ? p.lexically_normal().string() : "stdlib/" + name + ".hum";
        return true;
      }
    }
    return false;
  }
  fs::path p = fs::path(name).is_absolute() || from_dir.empty() ? fs::path(name) : fs::path(from_dir) / name;
  p = p.lexically_normal();
  searched = p.string();
  // Anything there (a folder, a device) is found, so that reading it says
  // what it is rather than "no file".
  std::error_code ec;
  if (!fs::exists(p, ec)) return false;
  file = p;
  shown = p.string();
  return true;
}

}  // namespace

bool is_stdlib_module(const std::string& name) {
  return name.find('/') == std::string::npos && !(name.size() >= 4 && name.ends_with(".hum"));
}

std::string folder_of(const std::string& source_name) {
  if (source_name.empty() || source_name.front() == '<') return "";
  return fs::path(source_name).parent_path().string();
}

std::string resolve_module(const std::string& name, const std::string& from_dir, std::string* searched) {
  fs::path file;
  std::string shown, tried;
  bool found = resolve(name, from_dir, file, shown, tried);
  if (searched) *searched = tried;
  if (!found) return "";
  std::error_code ec;
  fs::path canon = fs::canonical(file, ec);
  return ec ? file.string() : canon.string();
}

// A Humus program names modules, not files: a standard-library name, or a
// path to a .hum file, relative to the importing file, that stays in or below
// the folder of the script the run began with (so a module in a subfolder can
// import a sibling of its folder, but nothing outside the program's tree).
// Anything else (/proc/self/environ, ../../etc/passwd) is refused.
std::string import_refusal(const std::string& name, const std::string& from_dir, const ImportRules& rules) {
  if (!rules.statement || is_stdlib_module(name)) return "";
  if (rules.sandbox)
    return "IMPORT \"" + name +
           "\": file access is disabled (--sandbox): only standard-library modules can be imported";
  const std::string why = "IMPORT \"" + name +
                          "\": not a module: IMPORT takes a standard-library name (\"queue\") or a relative path to a "
                          ".hum file in or below the script's folder";
  fs::path rel = fs::path(name).lexically_normal();
  if (rel.is_absolute() || !name.ends_with(".hum") || rel.empty()) return why;
  // Symbolic links may not lead out of the folder, or to a file that is not
  // a module, either.
  std::error_code ec;
  const fs::path dir = fs::canonical(from_dir.empty() ? fs::path(".") : fs::path(from_dir), ec);
  if (ec) return "";  // no such folder: the lookup will say the module is missing
  const fs::path target = fs::weakly_canonical(dir / rel, ec);
  if (ec) return "";
  const fs::path& root = rules.root.empty() ? dir : rules.root;
  const fs::path inside = target.lexically_relative(root);
  if (inside.empty() || *inside.begin() == ".." || target.extension() != ".hum") return why;
  return "";
}

std::optional<ModuleFile> find_module(const std::string& name, const std::string& from_dir, const ImportRules& rules,
                                      std::string& why) {
  why = import_refusal(name, from_dir, rules);
  if (!why.empty()) return std::nullopt;
  fs::path file;
  ModuleFile m;
  std::string searched;
  if (!resolve(name, from_dir, file, m.shown, searched)) {
    why = is_stdlib_module(name) ? "no module named '" + name + "' in $HUMUS_PATH or the standard library"
                                 : "cannot find module '" + name + "' (no file " + searched + ")";
    return std::nullopt;
  }
  std::error_code ec;
  fs::path canon = fs::canonical(file, ec);
  m.file = file.string();
  m.path = ec ? m.file : canon.string();
  m.dir = file.parent_path().string();
  m.stdlib = is_stdlib_module(name);
  return m;
}

ReadResult read_module(const std::string& name, const ModuleFile& m, const ReadLimits& limits) {
  ReadResult got = read_source(m.file, limits);
  if (!got.source) {
    got.error = "cannot read module '" + name + "': " + got.error;
    return got;
  }
  got.source = std::make_shared<ast::Source>(ast::Source{m.shown, std::move(got.source->text), m.stdlib});
  return got;
}

std::string import_cycle_message(const std::string& chain, const std::string& again) {
  return "import cycle: " + chain + again;
}

}  // namespace humus::interp
