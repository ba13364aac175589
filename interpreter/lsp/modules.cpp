#include "interpreter/lsp/modules.hpp"

#include <filesystem>

#include "interpreter/modules.hpp"

namespace humus::lsp {

namespace fs = std::filesystem;

std::shared_ptr<const Module> Modules::find(const std::string& name, const std::string& from_dir, std::string& why) {
  return load(name, interp::find_module(name, from_dir, interp::ImportRules{false, {}, false}, why), why);
}

std::shared_ptr<const Module> Modules::find_import(const std::string& name, const std::string& from_dir,
                                                   const std::string& root, std::string& why) {
  std::error_code ec;
  fs::path root_dir = fs::canonical(root.empty() ? fs::path(".") : fs::path(root), ec);
  interp::ImportRules rules{true, ec ? fs::path() : root_dir, false};
  return load(name, interp::find_module(name, from_dir, rules, why), why);
}

std::shared_ptr<const Module> Modules::load(const std::string& name, const std::optional<interp::ModuleFile>& found,
                                            std::string& why) {
  if (!found) return nullptr;
  std::error_code ec;
  auto mtime = fs::last_write_time(found->path, ec);
  const uintmax_t size = fs::file_size(found->path, ec);
  const auto stamp = int64_t(mtime.time_since_epoch().count());
  Entry& e = cache_[found->path];
  if (e.module && e.mtime == stamp && e.size == size) return e.module;

  interp::ReadResult read = interp::read_module(name, *found);
  if (!read.source) {
    why = read.error;
    return nullptr;
  }
  auto m = std::make_shared<Module>();
  m->path = found->path;
  m->shown = found->shown;
  m->source = read.source;
  parse::ParseResult parsed = parse::parse_program(m->source);
  if (parsed.program)
    m->outline = make_outline(*parsed.program);
  else
    m->error = parsed.error;
  e = Entry{stamp, size, m};
  return m;
}

}  // namespace humus::lsp
