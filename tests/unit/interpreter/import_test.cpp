// IMPORT (LANGUAGE.md section 10): resolution, run-once, errors.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "interpreter/interpreter.hpp"
#include "run_program.hpp"
#include "runtime/stack_guard.hpp"

namespace fs = std::filesystem;
using humus::interp::Interpreter;

namespace {

// A fresh folder of module files for one test.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) {
    path = fs::temp_directory_path() / ("humus_import_test_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const std::string& rel, const std::string& text) const {
    fs::create_directories((path / rel).parent_path());
    std::ofstream(path / rel) << text;
  }
};

using Result = humus::test::Run;

// Runs `code` as the file `dir/main.hum` (so relative imports start in dir),
// with the prelude when asked.
Result run_in(const fs::path& dir, const std::string& code, bool prelude = false) {
  return humus::test::run_program(code, 1, (dir / "main.hum").string(), prelude);
}

// Sets an environment variable for one scope.
struct EnvVar {
  std::string name;
  std::string old;
  bool had;
  EnvVar(std::string n, const std::string& value) : name(std::move(n)) {
    const char* v = std::getenv(name.c_str());
    had = v != nullptr;
    if (had) old = v;
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~EnvVar() {
    if (had)
      ::setenv(name.c_str(), old.c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("a stdlib name resolves to the source tree's stdlib folder") {
  std::string found = humus::interp::resolve_module("prelude", "");
  REQUIRE(!found.empty());
  CHECK(fs::path(found).filename() == "prelude.hum");
  CHECK(fs::equivalent(fs::path(found).parent_path(), fs::path(HUMUS_STDLIB_DIR)));
  CHECK(humus::interp::resolve_module("no_such_module_anywhere", "").empty());
}

TEST_CASE("HUMUS_PATH folders come first, in order") {
  TempDir a("path_a"), b("path_b");
  b.write("prelude.hum", "DEF from AS #b\n");
  b.write("extra.hum", "DEF extra AS #b\n");
  a.write("extra.hum", "DEF extra AS #a\n");
  EnvVar env("HUMUS_PATH", a.path.string() + "::" + b.path.string());
  CHECK(fs::equivalent(humus::interp::resolve_module("extra", ""), a.path / "extra.hum"));
  CHECK(fs::equivalent(humus::interp::resolve_module("prelude", ""), b.path / "prelude.hum"));
  auto r = run_in(a.path, "IMPORT \"extra\"\nSEND extra TO println\n");
  CHECK(r.out == "#a\n");
  CHECK(r.err == "");
}

TEST_CASE("the module loader: one set of rules and messages for runs, the name check and the language server") {
  TempDir d("loader");
  d.write("app/lib/m.hum", "DEF m AS 1\n");
  d.write("outside.hum", "DEF o AS 1\n");
  const std::string app = (d.path / "app").string();
  humus::interp::ImportRules statement{true, fs::canonical(app), false};
  std::string why;
  auto m = humus::interp::find_module("lib/m.hum", app, statement, why);
  REQUIRE(m);
  CHECK(why.empty());
  CHECK(fs::equivalent(m->path, d.path / "app/lib/m.hum"));
  CHECK(fs::equivalent(m->dir, d.path / "app/lib"));
  CHECK_FALSE(m->stdlib);
  humus::interp::ReadResult read = humus::interp::read_module("lib/m.hum", *m);
  REQUIRE(read.source);
  CHECK(read.source->name == m->shown);
  CHECK(read.source->text == "DEF m AS 1\n");
  // Outside the script's folder: refused to a statement, found for a host.
  CHECK_FALSE(humus::interp::find_module("../outside.hum", app, statement, why));
  CHECK(why.starts_with("IMPORT \"../outside.hum\": not a module"));
  CHECK(humus::interp::find_module("../outside.hum", app, humus::interp::ImportRules{false, {}, false}, why));
  // The sandbox: standard-library names only.
  CHECK_FALSE(humus::interp::find_module("lib/m.hum", app, humus::interp::ImportRules{true, {}, true}, why));
  CHECK(why.find("--sandbox") != std::string::npos);
  auto fifo = humus::interp::find_module("prelude", "", statement, why);
  REQUIRE(fifo);
  CHECK(fifo->shown == "stdlib/prelude.hum");
  CHECK(fifo->stdlib);
  CHECK_FALSE(humus::interp::find_module("lib/none.hum", app, statement, why));
  CHECK(why == "cannot find module 'lib/none.hum' (no file " + app + "/lib/none.hum)");
  CHECK_FALSE(humus::interp::find_module("no_such_module_anywhere", "", statement, why));
  CHECK(why == "no module named 'no_such_module_anywhere' in $HUMUS_PATH or the standard library");
  // A folder is found, and reading it says what it is.
  auto folder = humus::interp::find_module("lib", app, humus::interp::ImportRules{false, {}, false}, why);
  CHECK_FALSE(folder);  // "lib" is a standard-library name, and there is none
  d.write("app/dir.hum/x.hum", "");
  auto dir = humus::interp::find_module("dir.hum", app, statement, why);
  REQUIRE(dir);
  read = humus::interp::read_module("dir.hum", *dir);
  CHECK_FALSE(read.source);
  CHECK(read.error.starts_with("cannot read module 'dir.hum': cannot read '"));
  CHECK(read.error.ends_with("': Is a directory"));
}

TEST_CASE("a path is relative to the importing file's folder, and a module runs once") {
  TempDir d("relative");
  d.write("lib/m.hum", "IMPORT \"sub/n.hum\"\nSEND #m_ran TO println\nDEF m AS n\n");
  d.write("lib/sub/n.hum", "SEND #n_ran TO println\nDEF n AS 42\n");
  auto r = run_in(d.path,
                  "IMPORT \"lib/m.hum\"\nIMPORT \"lib/sub/n.hum\"\nIMPORT \"lib/../lib/m.hum\"\nSEND m TO println\n");
  CHECK(r.outcome == Interpreter::Outcome::Ok);
  CHECK(r.out == "#n_ran\n#m_ran\n42\n");
  CHECK(r.err == "");
}

TEST_CASE("a module reached through a symbolic link is the same module") {
  TempDir d("symlink");
  d.write("real/m.hum", "SEND #ran TO println\n");
  fs::create_directory_symlink(d.path / "real", d.path / "link");
  auto r = run_in(d.path, "IMPORT \"real/m.hum\"\nIMPORT \"link/m.hum\"\n");
  CHECK(r.out == "#ran\n");
}

TEST_CASE("missing modules and cycles are errors at the IMPORT") {
  TempDir d("errors");
  d.write("a.hum", "IMPORT \"b.hum\"\n");
  d.write("b.hum", "\nIMPORT \"a.hum\"\n");
  std::string main = (d.path / "main.hum").string();
  auto missing = run_in(d.path, "SEND #before TO println\nIMPORT \"nope.hum\"\nSEND #after TO println\n");
  CHECK(missing.outcome == Interpreter::Outcome::RuntimeError);
  CHECK(missing.out == "#before\n");
  CHECK(missing.err.find(main + ":2:1: runtime error: cannot find module 'nope.hum'") == 0);
  auto stdlib = run_in(d.path, "IMPORT \"nope\"\n");
  CHECK(stdlib.err == main +
                          ":1:1: runtime error: no module named 'nope' in $HUMUS_PATH or the standard library\n"
                          "IMPORT \"nope\"\n^\n");
  auto cycle = run_in(d.path, "IMPORT \"a.hum\"\n");
  CHECK(cycle.outcome == Interpreter::Outcome::RuntimeError);
  std::string a = (d.path / "a.hum").string(), b = (d.path / "b.hum").string();
  CHECK(cycle.err ==
        b + ":2:1: runtime error: import cycle: " + a + " -> " + b + " -> " + a + "\nIMPORT \"a.hum\"\n^\n");
  auto self = run_in(d.path, "IMPORT \"main.hum\"\n");  // main.hum does not exist as a file
  CHECK(self.outcome == Interpreter::Outcome::RuntimeError);
}

TEST_CASE("syntax and compile errors in a module name the module's file") {
  TempDir d("syntax");
  d.write("bad.hum", "DEF x AS (1,\n");
  d.write("worse.hum", "CREATE a WITH \\m.[ BECOME m  BECOME m ]\nDEF y AS z\nLET (p, p) = $y\n");
  auto r = run_in(d.path, "IMPORT \"bad.hum\"\n");
  CHECK(r.outcome == Interpreter::Outcome::SyntaxError);
  CHECK(r.err.find((d.path / "bad.hum").string() + ":") == 0);
  auto c = run_in(d.path, "IMPORT \"worse.hum\"\n");
  CHECK(c.outcome == Interpreter::Outcome::CompileError);
  CHECK(c.err.find((d.path / "worse.hum").string() + ":3:") == 0);
}

TEST_CASE("the prelude is a host call, runs once, and creates no actors") {
  TempDir d("prelude");
  auto r = run_in(d.path, "IMPORT \"prelude\"\nSEND (length((1, 2, NIL)), NEW sink_beh) TO println\n", true);
  CHECK(r.err == "");
  CHECK(r.out == "2, @4\n");  // @1..@3 are println, timer, random
  auto without = run_in(d.path, "SEND length(NIL) TO println\n");
  CHECK(without.err.find("'length' is not defined") != std::string::npos);
}

TEST_CASE("a host import reports errors without a location") {
  Result r;
  humus::rt::run_on_big_stack([&] {
    humus::rt::RuntimeOptions o;
    o.out = [&](std::string_view s) { r.out += s; };
    o.err = [&](std::string_view s) { r.err += s; };
    Interpreter interp(o);
    r.outcome = interp.import("no_such_module_anywhere");
    CHECK(interp.import("prelude") == Interpreter::Outcome::Ok);
    CHECK(interp.import("prelude") == Interpreter::Outcome::Ok);
  });
  CHECK(r.outcome == Interpreter::Outcome::RuntimeError);
  CHECK(r.err == "humus: error: no module named 'no_such_module_anywhere' in $HUMUS_PATH or the standard library\n");
}

TEST_CASE("IMPORT in Humus code names modules, never other files (issue 20, repro 7)") {
  TempDir d("refused");
  d.write("lib/ok.hum", "DEF ok AS #ok\n");
  d.write("secret.txt", "PASSWORD=hunter2\n");
  d.write("lib/up.hum", "IMPORT \"../../secret.hum\"\n");
  d.write("lib/side.hum", "IMPORT \"../other/two.hum\"\n");
  d.write("other/two.hum", "DEF two AS 2\n");
  d.write("secret.hum", "PASSWORD=hunter2\n");
  fs::create_symlink(d.path / "secret.txt", d.path / "lib" / "leak.hum");
  const std::string main = (d.path / "main.hum").string();
  const std::string why =
      "not a module: IMPORT takes a standard-library name (\"queue\") or a relative path to a .hum file in or "
      "below the script's folder\n";
  for (const std::string& name :
       std::vector<std::string>{"/proc/self/environ", (d.path / "secret.txt").string(),
                                (d.path / "lib/ok.hum").string(), "../secret.hum", "lib/../../x.hum", "lib/leak.hum"}) {
    auto r = run_in(d.path, "IMPORT \"" + name + "\"\n");
    CHECK(r.outcome == Interpreter::Outcome::RuntimeError);
    CHECK(r.err == main + ":1:1: runtime error: IMPORT \"" + name + "\": " + why + "IMPORT \"" + name + "\"\n^\n");
    CHECK(r.err.find("hunter2") == std::string::npos);
  }
  // Nor from a module below: the script's folder is the bound, so a module
  // may reach a sibling of its own folder but nothing outside the tree.
  auto up = run_in(d.path, "IMPORT \"lib/up.hum\"\n");
  CHECK(up.err == (d.path / "lib/up.hum").string() + ":1:1: runtime error: IMPORT \"../../secret.hum\": " + why +
                      "IMPORT \"../../secret.hum\"\n^\n");
  auto side = run_in(d.path, "IMPORT \"lib/side.hum\"\nSEND two TO println\n");
  CHECK(side.out == "2\n");
  CHECK(side.err == "");
  auto ok = run_in(d.path, "IMPORT \"lib/ok.hum\"\nSEND ok TO println\n");
  CHECK(ok.out == "#ok\n");
  CHECK(ok.err == "");
}

TEST_CASE("the sandbox allows standard-library modules only; the host's own import is not limited") {
  TempDir d("sandbox");
  d.write("m.hum", "DEF m AS #m\n");
  Result r;
  std::string main = (d.path / "main.hum").string();
  humus::rt::run_on_big_stack([&] {
    humus::rt::RuntimeOptions o;
    o.out = [&](std::string_view s) { r.out += s; };
    o.err = [&](std::string_view s) { r.err += s; };
    Interpreter interp(o);
    interp.set_sandbox(true);
    CHECK(interp.sandbox());
    auto src = std::make_shared<humus::ast::Source>(
        humus::ast::Source{main, "IMPORT \"queue\"\nSEND #queue_ok TO println\nIMPORT \"m.hum\"\n"});
    humus::engine::CompiledUnit* unit = interp.load(src);
    REQUIRE(unit);
    CHECK(interp.run(*unit) == Interpreter::Outcome::RuntimeError);
    CHECK(interp.import((d.path / "m.hum").string()) == Interpreter::Outcome::Ok);
    interp.start();
    interp.wait_idle();
  });
  CHECK(r.out == "#queue_ok\n");
  CHECK(r.err == main +
                     ":3:1: runtime error: IMPORT \"m.hum\": file access is disabled (--sandbox): only "
                     "standard-library modules can be imported\nIMPORT \"m.hum\"\n^\n");
}
