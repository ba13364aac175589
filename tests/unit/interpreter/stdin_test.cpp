// The stdin actor (runtime/builtins/stdin.hpp) on a pipe whose lines come
// slowly: requests wait for input (and hold the program alive meanwhile),
// many readers get every line once and in order, and #eof ends them all.
#include <doctest/doctest.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "tests/unit/interpreter/run_program.hpp"

using namespace std::chrono_literals;

TEST_CASE("stdin: lines that come slowly reach waiting readers in order, then #eof") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  // Three lines, 50 ms apart, then the end: every request of the program
  // below finds no line ready and waits. The pipe closes 200 ms or more
  // after `start`, however long the program takes to load (a sanitizer
  // build can take longer than the first line's 50 ms).
  const auto start = std::chrono::steady_clock::now();
  std::thread writer([w = fds[1]] {
    for (const char* line : {"one\n", "two\n", "three\n"}) {
      std::this_thread::sleep_for(50ms);
      REQUIRE(::write(w, line, std::char_traits<char>::length(line)) > 0);
    }
    std::this_thread::sleep_for(50ms);
    ::close(w);
  });
  std::string out, err;
  std::mutex m;
  humus::rt::run_on_big_stack([&] {
    humus::rt::RuntimeOptions o = humus::test::capturing_options(2, m, out, err);
    o.devices.stdin_fd = fds[0];
    humus::interp::Interpreter interp(o);
    // Two readers ask at once; each line goes to one of them, in order.
    auto src = std::make_shared<humus::ast::Source>(humus::ast::Source{"t.hum", R"(
      DEF reader(name) AS \line.[
        CASE line OF
        #eof : [ SEND (name, #eof) TO println ]
        _ : [ SEND (name, line) TO collect  SEND (SELF, #read_line) TO stdin ]
        END
      ]
      DEF collector(lines) AS \(name, line).[
        CASE lines OF
        2 : [ SEND line TO print ]
        _ : [ SEND line TO print  BECOME collector(add(lines, 1)) ]
        END
      ]
      CREATE collect WITH collector(0)
      SEND (NEW reader(#a), #read_line) TO stdin
      SEND (NEW reader(#b), #read_line) TO stdin
    )"});
    humus::engine::CompiledUnit* unit = interp.load(src);
    REQUIRE(unit);
    interp.run(*unit);
    interp.start();
    interp.wait_idle();  // not idle before the pipe closes: waiting requests hold the program
    CHECK(std::chrono::steady_clock::now() - start >= 200ms);
  });
  writer.join();
  ::close(fds[0]);
  CHECK(err == "");
  // The lines in the order read (the collector prints them as they come,
  // and they come in order: each reader asks again only after its line),
  // and both readers end with #eof.
  CHECK(out.find("one\ntwo\nthree\n") != std::string::npos);
  CHECK(out.find("#a, #eof\n") != std::string::npos);
  CHECK(out.find("#b, #eof\n") != std::string::npos);
}
