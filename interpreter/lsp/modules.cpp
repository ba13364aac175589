#include "interpreter/lsp/modules.hpp"

#include <filesystem>

#include "interpreter/interpreter.hpp"

namespace humus::lsp {

namespace fs = std::filesystem;

std::shared_ptr<const Module> Modules::find(const std::string& name, const std::string& from_dir, std::string& why) {
  std::string searched;
  std::string path = interp::Interpreter::resolve_module(name, from_dir, &searched);
  if (path.empty()) {
    why = interp::Interpreter::is_stdlib_module(name)
              ? "no module named '" + name + "' in $HUMUS_PATH or the standard library"
              : "cannot find module '" + name + "' (no file " + searched + ")";
    return nullptr;
  }
  std::error_code ec;
  auto mtime = fs::last_write_time(path, ec);
  const uintmax_t size = fs::file_size(path, ec);
  const auto stamp = int64_t(mtime.time_since_epoch().count());
  Entry& e = cache_[path];
  if (e.module && e.mtime == stamp && e.size == size) return e.module;

  std::string error;
  ast::SourcePtr read = interp::read_source_file(path, error);
  if (!read) {
    why = "cannot read module '" + name + "': " + error;
    return nullptr;
  }
  auto m = std::make_shared<Module>();
  m->path = path;
  m->shown = interp::Interpreter::is_stdlib_module(name) ? "stdlib/" + name + ".hum" : path;
  m->source = std::make_shared<ast::Source>(ast::Source{m->shown, read->text});
  parse::ParseResult parsed = parse::parse_program(m->source);
  if (parsed.program)
    m->outline = make_outline(*parsed.program);
  else
    m->error = parsed.error;
  e = Entry{stamp, size, m};
  return m;
}

}  // namespace humus::lsp
