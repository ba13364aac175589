// The language server's modules: an IMPORT of a named pipe is refused with
// the reason, at once (it blocked the server's only thread: issue 34, item 3).
#include "interpreter/lsp/modules.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

TEST_CASE("a module that is a named pipe is refused, not waited on") {
  const fs::path dir = fs::temp_directory_path() / ("humus_lsp_modules_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path fifo = dir / "fifo.hum";
  fs::remove(fifo);
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::ofstream(dir / "plain.hum") << "DEF x AS 1\n";

  humus::lsp::Modules modules;
  std::string why;
  CHECK(modules.find_import("fifo.hum", dir.string(), dir.string(), why) == nullptr);
  CHECK(why.find("a named pipe, not a regular file") != std::string::npos);
  why.clear();
  CHECK(modules.find_import("plain.hum", dir.string(), dir.string(), why) != nullptr);
  CHECK(why.empty());
  fs::remove_all(dir);
}
