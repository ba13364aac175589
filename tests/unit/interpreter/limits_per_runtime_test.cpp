// Limits are properties of one runtime (issue 15): two runtimes in one
// process, one whose integers may not pass 128 KB, one with the default
// limit (128 MB), each making a 2 Mbit integer on its own worker. Before,
// the integer limit was process-wide: the last runtime made with a memory
// limit set it for every runtime.
#include <doctest/doctest.h>

#include <memory>
#include <mutex>
#include <string>

#include "interpreter/interpreter.hpp"
#include "run_program.hpp"
#include "runtime/stack_guard.hpp"

namespace {

using humus::interp::Interpreter;

// 2^(2^k) by squaring: 2^k + 1 bits.
const char* const kProgram = R"(DEF big(n, k) AS IF $k = 0 n ELSE big(mul(n, n), sub(k, 1))
CREATE squarer WITH \k.[ SEND (#big, k, less(1, big(2, k))) TO println ]
)";

struct Host {
  std::mutex m;
  std::string out, err;
  std::unique_ptr<Interpreter> interp;

  explicit Host(uint64_t max_integer) {
    humus::rt::RuntimeOptions o = humus::test::capturing_options(1, m, out, err);
    o.limits.max_integer = max_integer;
    interp = std::make_unique<Interpreter>(o);
    REQUIRE(interp->load_prelude() == Interpreter::Outcome::Ok);
    auto src = std::make_shared<humus::ast::Source>(humus::ast::Source{"limits.hum", kProgram});
    Interpreter::Outcome outcome;
    auto* unit = interp->load(src, &outcome);
    REQUIRE(unit);
    REQUIRE(interp->run(*unit) == Interpreter::Outcome::Ok);
    interp->start();
  }
  // SEND k TO squarer, as a top-level statement of this runtime.
  void square(int k) {
    auto src = std::make_shared<humus::ast::Source>(
        humus::ast::Source{"send.hum", "SEND " + std::to_string(k) + " TO squarer\n"});
    Interpreter::Outcome outcome;
    auto* unit = interp->load(src, &outcome);
    REQUIRE(unit);
    REQUIRE(interp->run(*unit) == Interpreter::Outcome::Ok);
  }
};

}  // namespace

TEST_CASE("two runtimes with different integer limits work side by side") {
  humus::rt::run_on_big_stack([] {
    Host unlimited(0);
    Host limited(uint64_t(128) << 10);  // made second: before, its limit would have held for both
    unlimited.square(21);               // 2^(2^21): 2 Mbit = 256 KB, fine under 128 MB
    limited.square(21);                 // over 128 KB: the event fails
    limited.square(10);                 // 1 Kbit: fine
    unlimited.square(22);               // and again, after the limited runtime's events
    unlimited.interp->wait_idle();
    limited.interp->wait_idle();
    CHECK(unlimited.out == "#big, 21, TRUE\n#big, 22, TRUE\n");
    CHECK(unlimited.err == "");
    CHECK(limited.out == "#big, 10, TRUE\n");
    CHECK(limited.err.find("runtime error in actor squarer@4: integer too large (") != std::string::npos);
    CHECK(limited.err.find(" bits, over the 128K limit; see --max-memory)") != std::string::npos);
  });
}
