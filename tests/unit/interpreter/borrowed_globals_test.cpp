// An interpreter that borrows another's globals (Interpreter's borrowing
// constructor, rt::Globals::lend): it runs with what the base loaded, and
// the base gets its globals back as they were, whatever the borrower bound.
#include <doctest/doctest.h>

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

#include "interpreter/interpreter.hpp"
#include "runtime/stack_guard.hpp"
#include "tests/unit/runtime/capturing_options.hpp"

namespace {

using humus::interp::Interpreter;
namespace rt = humus::rt;

struct Output {
  std::mutex m;
  std::string out, err;
};

// Runs `code` to quiescence in `interp`.
Interpreter::Outcome run_in(Interpreter& interp, const std::string& code) {
  auto src = std::make_shared<humus::ast::Source>(humus::ast::Source{"borrower.hum", code});
  Interpreter::Outcome outcome = Interpreter::Outcome::Ok;
  humus::engine::CompiledUnit* unit = interp.load(src, &outcome);
  if (!unit) return outcome;
  if (!interp.check_names(*unit, true)) return Interpreter::Outcome::CompileError;
  outcome = interp.run(*unit);
  interp.start();
  interp.wait_idle();
  return outcome;
}

uint64_t bits_of(Interpreter& interp, const char* name) {
  auto slot = interp.runtime().globals().find(name);
  REQUIRE(slot);
  return interp.runtime().globals().get(*slot).bits();
}

}  // namespace

TEST_CASE("a borrower runs with the base's prelude, and the base gets its globals back as they were") {
  rt::run_on_big_stack([] {
    Output base_out;
    Interpreter base(humus::test::capturing_options(1, base_out.m, base_out.out, base_out.err));
    REQUIRE(base.load_prelude() == Interpreter::Outcome::Ok);
    const size_t names = base.runtime().globals().bound().size();
    const uint64_t map_bits = bits_of(base, "map");
    const uint64_t println_bits = bits_of(base, "println");
    const bool intact = base.runtime().globals().builtins_intact().load();

    {
      Output o;
      Interpreter borrower(humus::test::capturing_options(1, o.m, o.out, o.err), base);
      // Everything a borrower may leave behind: a prelude function and a
      // built-in bound again, new names, an actor in a global holding a
      // pinned value.
      CHECK(run_in(borrower,
                   "SEND map((\\x.add(x, 1)), (1, 2, NIL)) TO println\n"
                   "DEF map(f, xs) AS #mine\n"
                   "DEF add(a, b) AS #added\n"
                   "LET kept = (1, 2, 3)\n"
                   "CREATE holder WITH \\m.[ SEND (m, kept) TO println ]\n"
                   "SEND map(0, 0) TO holder\n"
                   "SEND add(0, 0) TO holder\n") == Interpreter::Outcome::Ok);
      CHECK(o.err == "");
      CHECK(o.out.find("2, 3, NIL") != std::string::npos);
      CHECK(o.out.find("#mine, 1, 2, 3") != std::string::npos);
      CHECK(o.out.find("#added, 1, 2, 3") != std::string::npos);
      CHECK(bits_of(borrower, "println") != println_bits);  // its own built-in actors
      CHECK_THROWS_WITH_AS(Interpreter(humus::test::capturing_options(1, o.m, o.out, o.err), base),
                           "these globals are already lent to a runtime", std::logic_error);
    }
    CHECK(base.runtime().globals().bound().size() == names);
    CHECK(bits_of(base, "map") == map_bits);
    CHECK(bits_of(base, "println") == println_bits);
    CHECK_FALSE(base.runtime().globals().find("kept"));
    CHECK_FALSE(base.runtime().globals().find("holder"));
    CHECK(base.runtime().globals().builtins_intact().load() == intact);

    // The next borrower sees the prelude's map and add, and none of the names above.
    Output o;
    Interpreter next(humus::test::capturing_options(1, o.m, o.out, o.err), base);
    CHECK(run_in(next, "SEND (map((\\x.add(x, 1)), (1, 2, NIL)), add(1, 2)) TO println") == Interpreter::Outcome::Ok);
    CHECK(o.out == "(2, 3, NIL), 3\n");
    // The prelude counts as imported: importing it again binds nothing anew.
    CHECK(run_in(next, "IMPORT \"prelude\"") == Interpreter::Outcome::Ok);
    CHECK(bits_of(next, "map") == map_bits);
    CHECK(run_in(next, "SEND kept TO println") == Interpreter::Outcome::CompileError);
    CHECK(o.err.find("'kept' is not defined") != std::string::npos);
  });
}

TEST_CASE("a runtime error in the base's code shows its source line in a borrower") {
  rt::run_on_big_stack([] {
    Output base_out;
    Interpreter base(humus::test::capturing_options(1, base_out.m, base_out.out, base_out.err));
    auto lib = std::make_shared<humus::ast::Source>(
        humus::ast::Source{"lib.hum", "DEF fail_beh AS \\x.[\n  THROW (#bad, x)\n]\n"});
    REQUIRE(base.run_source(lib) == Interpreter::Outcome::Ok);
    Output o;
    Interpreter borrower(humus::test::capturing_options(1, o.m, o.out, o.err), base);
    CHECK(run_in(borrower, "SEND 7 TO NEW fail_beh") == Interpreter::Outcome::Ok);
    CHECK(o.err.find("lib.hum:2") != std::string::npos);
    CHECK(o.err.find("THROW (#bad, x)") != std::string::npos);
  });
}
