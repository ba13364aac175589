// The fuzz targets fuzz_run and fuzz_alloc load only the prelude's
// definitions an input reaches (tests/fuzz/fuzz_program.hpp, issue 34):
// every script of tests/scripts and tests/stdlib that uses the prelude must print the same
// as with the whole prelude, or the targets would check other programs than
// the humus command runs.
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

TEST_CASE("the prelude's definitions a script reaches run it as the whole prelude does") {
  const auto tests = std::filesystem::path(__FILE__).parent_path() / ".." / "..";
  size_t compared = 0, importing = 0, printed = 0;
  std::vector<std::filesystem::path> files;
  for (const char* folder : {"scripts", "stdlib"})
    for (const auto& entry : std::filesystem::directory_iterator(tests / folder)) files.push_back(entry.path());
  for (const auto& path : files) {
    if (path.extension() != ".hum") continue;
    const std::string code = read_file(path);
    if (code.size() > 4096) continue;  // what fuzz_run takes
    // Timing decides what these print (timers, the clock).
    if (code.find("AFTER") != std::string::npos || code.find("NOW") != std::string::npos ||
        code.find("timer") != std::string::npos || code.find("clock") != std::string::npos)
      continue;
    bool imports = false;
    const std::string part = humus::fuzz::prelude_for(code, imports);
    if (part.empty()) continue;
    CHECK(part.size() < humus::fuzz::prelude_index().text.size());
    std::string whole, subset;
    // Ten seconds: no script runs that long, even under a sanitizer.
    const auto limit = std::chrono::seconds(10);
    humus::fuzz::run_program(code, {}, &whole, true, limit);
    humus::fuzz::run_program(code, {}, &subset, false, limit);
    INFO(path.filename().string());
    CHECK(subset == whole);
    ++compared;
    if (!whole.empty()) ++printed;
    if (code.find("IMPORT") != std::string::npos) ++importing;
  }
  CHECK(compared > 20);
  CHECK(importing > 5);
  CHECK(printed > compared / 2);
  MESSAGE(compared << " scripts compared, " << importing << " of them importing modules, " << printed << " printing");
}

TEST_CASE("an input reaches a prelude definition through the ones it names") {
  bool imports = false;  // whether the whole prelude must load
  // race_beh uses once_beh and send_to_all, and once_beh sink_beh.
  const std::string part = humus::fuzz::prelude_for("CREATE r WITH race_beh(NIL)", imports);
  CHECK_FALSE(imports);
  CHECK(part.find("DEF race_beh") != std::string::npos);
  CHECK(part.find("DEF once_beh") != std::string::npos);
  CHECK(part.find("DEF send_to_all") != std::string::npos);
  CHECK(part.find("DEF sink_beh") != std::string::npos);
  CHECK(part.find("DEF map") == std::string::npos);
  // Line numbers are kept: each line of the prelude is a line of the part.
  CHECK(std::count(part.begin(), part.end(), '\n') ==
        std::count(humus::fuzz::prelude_index().text.begin(), humus::fuzz::prelude_index().text.end(), '\n'));
  CHECK(humus::fuzz::prelude_for("SEND 1 TO println", imports).empty());
  CHECK_FALSE(imports);
  // A standard-library module's words count, and those of the modules it imports.
  const std::string queue = humus::fuzz::prelude_for("IMPORT \"queue\" SEND 1 TO println", imports);
  CHECK_FALSE(imports);
  CHECK(queue.find("DEF append") != std::string::npos);  // queue.hum's
  CHECK(queue.find("DEF take") != std::string::npos);    // fifo.hum's
  CHECK(queue.find("DEF race_beh") == std::string::npos);
  // Anything else imported may use any of it: the whole prelude loads.
  CHECK(humus::fuzz::prelude_for("IMPORT \"lib.hum\" SEND map TO println", imports).empty());
  CHECK(imports);
  CHECK(humus::fuzz::prelude_for("IMPORT \"prelude\"", imports).empty());
  CHECK(imports);
  CHECK(humus::fuzz::prelude_for("IMPORT # a comment\n  \"x.hum\"", imports).empty());
  CHECK(imports);
  // The word alone (in a comment, or a syntax error) imports nothing.
  CHECK(humus::fuzz::prelude_for("# IMPORT does nothing.\nSEND map TO println", imports).find("DEF map") !=
        std::string::npos);
  CHECK_FALSE(imports);
}
