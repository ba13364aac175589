// The fuzz targets fuzz_run and fuzz_alloc borrow the prelude from one base
// interpreter for every input (tests/fuzz/fuzz_program.hpp, issue 34): every
// script of tests/scripts and tests/stdlib must print the same as with
// the prelude loaded into its own interpreter, one after another from the
// same base (what one leaves behind would show in the next), or the targets
// would check other programs than the humus command runs.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "../../fuzz/fuzz_program.hpp"

namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("a script runs with the borrowed prelude as with its own") {
  const auto tests = std::filesystem::path(__FILE__).parent_path() / ".." / "..";
  size_t compared = 0, importing = 0, printed = 0;
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"scripts", "stdlib"})
    for (const auto& entry : std::filesystem::directory_iterator(tests / folder)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    if (path.extension() != ".hum") continue;
    const std::string code = read_file(path);
    if (code.size() > 4096) continue;  // what fuzz_run takes
    // Timing decides what these print (timers, the clock).
    if (code.find("AFTER") != std::string::npos || code.find("NOW") != std::string::npos ||
        code.find("timer") != std::string::npos || code.find("clock") != std::string::npos)
      continue;
    std::string own, borrowed;
    // Ten seconds: no script runs that long, even under a sanitizer.
    const auto limit = std::chrono::seconds(10);
    humus::fuzz::run_program(code, {}, &own, true, limit);
    humus::fuzz::run_program(code, {}, &borrowed, false, limit);
    INFO(path.filename().string());
    CHECK(borrowed == own);
    ++compared;
    if (!own.empty()) ++printed;
    if (code.find("IMPORT") != std::string::npos) ++importing;
  }
  CHECK(compared > 50);
  CHECK(importing > 5);
  CHECK(printed > compared / 2);
  MESSAGE(compared << " scripts compared, " << importing << " of them importing modules, " << printed << " printing");
}
