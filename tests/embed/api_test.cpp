// The embedding API (include/humus), used only through <humus/humus.hpp>,
// as a host would: conversions, loading with diagnostics, native functions
// and actors, send/ask, several host threads, shutdown.
#include <humus/humus.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

using humus::Value;

namespace {

// A runtime whose output and asynchronous diagnostics are kept for checking.
struct Host {
  std::mutex mutex;
  std::string out, err;
  humus::Runtime rt;

  explicit Host(unsigned threads = 2, bool prelude = false) : rt(options(threads, prelude)) {}

  humus::Options options(unsigned threads, bool prelude) {
    humus::Options o;
    o.threads = threads;
    o.prelude = prelude;
    o.out = [this](std::string_view s) {
      std::lock_guard lock(mutex);
      out += s;
    };
    o.err = [this](std::string_view s) {
      std::lock_guard lock(mutex);
      err += s;
    };
    return o;
  }
  std::string output() {
    rt.run_until_idle();
    std::lock_guard lock(mutex);
    return out;
  }
  std::string errors() {
    rt.run_until_idle();
    std::lock_guard lock(mutex);
    return err;
  }
};

}  // namespace

TEST_CASE("integers convert both ways, big ones through decimal strings") {
  CHECK(Value::integer(42).as_int() == 42);
  CHECK(Value(-7).as_int() == -7);
  CHECK(Value::integer(INT64_MAX).as_int() == INT64_MAX);
  CHECK(Value::integer(INT64_MIN).as_int() == INT64_MIN);
  CHECK(Value::integer(INT64_MIN).to_string() == "-9223372036854775808");
  CHECK(Value(UINT64_MAX).as_decimal() == "18446744073709551615");

  Value big = Value::integer("-123456789012345678901234567890");
  CHECK(big.is_integer());
  CHECK_FALSE(big.fits_int64());
  CHECK(big.as_decimal() == "-123456789012345678901234567890");
  CHECK(big.to_string() == "-123456789012345678901234567890");
  CHECK_THROWS_AS(big.as_int(), humus::Error);
  CHECK(Value::integer("0042").as_int() == 42);               // a big-looking string that is small
  CHECK(Value::integer("4611686018427387904").fits_int64());  // just past the small range
  CHECK_THROWS_AS(Value::integer("12x"), humus::Error);
  CHECK_THROWS_AS(Value::integer("-"), humus::Error);
  CHECK(Value::integer("99999999999999999999") == Value::integer("99999999999999999999"));
}

TEST_CASE("constants, symbols, pairs, tuples, lists and strings") {
  CHECK(Value().is_undefined());
  CHECK(Value::undefined().to_string() == "?");
  CHECK(Value::nil().is_nil());
  CHECK(Value::nil().is_list());
  CHECK(Value::boolean(true).as_bool());
  CHECK(Value::boolean(false).to_string() == "FALSE");
  CHECK(Value::symbol("ok").symbol_name() == "ok");
  CHECK(Value::symbol("ok").to_string() == "#ok");
  CHECK(Value::symbol("ok") == Value::symbol("ok"));
  CHECK_FALSE(Value::symbol("ok") == Value::symbol("no"));
  CHECK(Value::symbol("ok").kind() == humus::Kind::Symbol);

  Value p = Value::pair(1, Value::symbol("x"));
  CHECK(p.is_pair());
  CHECK(p.head().as_int() == 1);
  CHECK(p.tail().symbol_name() == "x");
  CHECK_THROWS_AS(Value(1).head(), humus::Error);

  Value t = Value::tuple({1, 2, 3});
  CHECK(t.to_string() == "1, 2, 3");
  auto parts = t.tuple_elements(2);
  CHECK(parts[0].as_int() == 1);
  CHECK(parts[1].to_string() == "2, 3");
  CHECK(Value::tuple({}).is_nil());
  CHECK(Value::tuple({5}).as_int() == 5);

  Value l = Value::list({1, Value::symbol("a"), Value::list({2})});
  CHECK(l.to_string() == "1, #a, (2, NIL), NIL");
  CHECK(l.is_list());
  auto items = l.to_vector();
  REQUIRE(items.size() == 3);
  CHECK(items[1].symbol_name() == "a");
  CHECK_THROWS_AS(t.to_vector(), humus::Error);  // not NIL-terminated

  Value s = Value::string("hi \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");  // é € 😀
  CHECK(s.is_string());
  CHECK(s.to_vector().size() == 6);
  CHECK(s.to_vector()[3].as_int() == 0xE9);
  CHECK(s.as_string() == "hi \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  CHECK(Value::string("ab").to_string() == "97, 98, NIL");
  CHECK(Value::string("").is_nil());
  CHECK_THROWS_AS(Value::string("\xC3"), humus::Error);
  CHECK_THROWS_AS(Value::list({-1}).as_string(), humus::Error);

  // Copies share, moves leave ?.
  Value a = l;
  Value b = std::move(a);
  CHECK(a.is_undefined());
  CHECK(b == l);
}

TEST_CASE("eval gives the last expression's value; globals can be read and defined") {
  Host h;
  humus::Result r = h.rt.eval("DEF n AS 20\nadd(n, 1)");
  REQUIRE(r.ok());
  CHECK(r.value.as_int() == 21);
  CHECK(h.rt.global("n")->as_int() == 20);
  CHECK_FALSE(h.rt.global("no_such_name").has_value());
  CHECK(h.rt.global("add")->is_function());
  CHECK(h.rt.global("println")->is_actor());

  h.rt.define("greeting", Value::string("hello"));
  CHECK(h.rt.eval("greeting").value.as_string() == "hello");
  CHECK(h.rt.eval("mul(4294967296, 4294967296)").value.as_decimal() == "18446744073709551616");
}

TEST_CASE("errors come back as diagnostics with file, line and column, not as output") {
  Host h;
  humus::Result syntax = h.rt.eval("SEND 1 TO println\nSEND (1, TO println", "bad.hum");
  CHECK(syntax.status == humus::Result::Status::SyntaxError);
  REQUIRE(syntax.diagnostics.size() == 1);
  CHECK(syntax.diagnostics[0].file == "bad.hum");
  CHECK(syntax.diagnostics[0].line == 2);
  CHECK(syntax.diagnostics[0].column > 0);
  CHECK(syntax.diagnostics[0].severity == humus::Diagnostic::Severity::Error);
  CHECK(syntax.diagnostics[0].to_string().starts_with("bad.hum:2:"));

  humus::Result compile = h.rt.eval("DEF f AS \\(x, x).x", "c.hum");
  CHECK(compile.status == humus::Result::Status::CompileError);
  REQUIRE_FALSE(compile.diagnostics.empty());
  CHECK(compile.diagnostics[0].line == 1);
  CHECK(compile.diagnostics[0].message.find("x") != std::string::npos);

  humus::Result unbound = h.rt.eval("SEND x_undefined TO println", "u.hum");
  CHECK_FALSE(unbound.ok());
  CHECK(unbound.message().find("x_undefined") != std::string::npos);

  // A misspelt name: the closest defined names, at top level and in a body.
  humus::Result misspelt = h.rt.eval("SEND 1 TO printn", "m.hum");
  CHECK_FALSE(misspelt.ok());
  CHECK(
      misspelt.message().starts_with("m.hum:1:11: error: runtime error: 'printn' is not defined; did you mean "
                                     "'print' or 'println'?"));
  humus::Result in_body = h.rt.eval("CREATE quiet WITH \\m.[ SEND m TO printn ]", "b.hum");
  CHECK(in_body.ok());
  REQUIRE(in_body.diagnostics.size() == 1);
  CHECK(in_body.diagnostics[0].severity == humus::Diagnostic::Severity::Warning);
  CHECK(in_body.diagnostics[0].message == "'printn' is not defined; did you mean 'print' or 'println'?");

  humus::Result runtime = h.rt.eval("DEF a AS 1\n  THROW #oops", "r.hum");
  CHECK(runtime.status == humus::Result::Status::RuntimeError);
  REQUIRE(runtime.diagnostics.size() == 1);
  CHECK(runtime.diagnostics[0].line == 2);
  CHECK(runtime.diagnostics[0].column == 3);
  CHECK(h.rt.global("a")->as_int() == 1);  // the statements before it stay

  humus::Result missing = h.rt.load_file("/nonexistent/x.hum");
  CHECK(missing.status == humus::Result::Status::IoError);
  CHECK(missing.diagnostics.at(0).file == "/nonexistent/x.hum");

  humus::Result import = h.rt.import("no_such_module_anywhere");
  CHECK_FALSE(import.ok());
  CHECK(import.message().find("no_such_module_anywhere") != std::string::npos);

  CHECK(h.errors().empty());  // nothing was printed
}

TEST_CASE("ScriptMode::OneBlock runs a script the uFork way: dataflow order, one transaction") {
  Host h;
  // A forward reference to a later DEF works; the names stay the block's own.
  humus::Result fwd =
      h.rt.eval("SEND answer TO println\nDEF answer AS add(x, 2)\nDEF x AS 40", "fwd.hum", humus::ScriptMode::OneBlock);
  CHECK(fwd.ok());
  CHECK(h.output() == "42\n");
  CHECK_FALSE(h.rt.global("answer").has_value());
  // By default the same script stops at its first statement.
  humus::Result in_order = h.rt.eval("SEND answer TO println\nDEF answer AS 1", "fwd.hum");
  CHECK(in_order.status == humus::Result::Status::RuntimeError);
  // THROW anywhere cancels every SEND of the script.
  humus::Result thrown = h.rt.eval("SEND #never TO println\nTHROW #stop", "throw.hum", humus::ScriptMode::OneBlock);
  CHECK(thrown.status == humus::Result::Status::RuntimeError);
  CHECK(h.output() == "42\n");
  // A name bound twice is an error before anything runs.
  humus::Result twice = h.rt.eval("DEF y AS 1\nDEF y AS 2", "twice.hum", humus::ScriptMode::OneBlock);
  CHECK(twice.status == humus::Result::Status::CompileError);
}

TEST_CASE("load_file runs a script; its errors name the file") {
  Host h;
  auto dir = std::filesystem::temp_directory_path() / ("humus_embed_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string good = (dir / "good.hum").string(), bad = (dir / "bad.hum").string();
  std::ofstream(good) << "DEF answer AS 42\nSEND (#loaded, answer) TO println\n";
  std::ofstream(bad) << "DEF x AS 1\nDEF y AS (\n";
  CHECK(h.rt.load_file(good).ok());
  CHECK(h.output() == "#loaded, 42\n");
  CHECK(h.rt.load_file(good, humus::ScriptMode::OneBlock).ok());
  CHECK(h.output() == "#loaded, 42\n#loaded, 42\n");
  humus::Result r = h.rt.load_file(bad);
  CHECK(r.status == humus::Result::Status::SyntaxError);
  CHECK(r.diagnostics.at(0).file == bad);
  // A name defined nowhere: an error before anything runs, worded as the
  // humus command words it (one session for both).
  std::string misspelt = (dir / "misspelt.hum").string();
  std::ofstream(misspelt) << "SEND #first TO println\nSEND 2 TO printn\n";
  humus::Result names = h.rt.load_file(misspelt);
  CHECK(names.status == humus::Result::Status::CompileError);
  REQUIRE(names.diagnostics.size() == 1);
  CHECK(names.diagnostics[0].to_string() ==
        misspelt + ":2:11: error: 'printn' is not defined; did you mean 'print' or 'println'?");
  h.rt.run_until_idle();
  CHECK(h.output() == "#loaded, 42\n#loaded, 42\n");  // the first line did not run
  std::filesystem::remove_all(dir);
}

TEST_CASE("the prelude and the standard library load for a library host") {
  humus::Options o;
  o.out = [](std::string_view) {};
  humus::Runtime rt(o);  // prelude on by default
  CHECK(rt.import("fifo").ok());
}

TEST_CASE("Options::sandbox: Humus code imports standard-library modules only; the host loads what it likes") {
  auto dir = std::filesystem::temp_directory_path() / ("humus_embed_sandbox_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string mod = (dir / "m.hum").string(), main = (dir / "main.hum").string();
  std::ofstream(mod) << "DEF m AS #from_m\n";
  std::ofstream(main) << "IMPORT \"fifo\"\nIMPORT \"m.hum\"\n";
  humus::Options o;
  o.sandbox = true;
  o.prelude = false;
  o.out = [](std::string_view) {};
  humus::Runtime rt(o);
  humus::Result r = rt.load_file(main);
  CHECK(r.status == humus::Result::Status::RuntimeError);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 2);
  CHECK(r.diagnostics[0].message.find("file access is disabled") != std::string::npos);
  CHECK(rt.import(mod).ok());
  CHECK(rt.eval("m").value.to_string() == "#from_m");
  std::filesystem::remove_all(dir);
}

// The devices (docs/scripting.md): an embedded runtime has files and the
// clock but not standard input unless the host gives it; the sandbox takes
// all three; a refusal is an answer, (#error, reason).
TEST_CASE("Options::devices and Options::sandbox decide what stdin, files and clock do") {
  auto dir = std::filesystem::temp_directory_path() / ("humus_embed_devices_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string data = (dir / "data.txt").string();
  std::ofstream(data) << "one\ntwo\n";
  const std::string program =
      "CREATE k WITH \\answer.[ CASE answer OF (#error, why) : [ SEND why TO print ] _ : [ SEND text(answer) TO print "
      "] "
      "END ]\n"
      "SEND (k, #read_line) TO stdin\n"
      "SEND (k, #lines, \"" +
      data +
      "\") TO files\n"
      "SEND (k, #now) TO clock\n";
  auto run = [&](humus::Options o) {
    std::mutex m;
    std::vector<std::string> lines;
    o.prelude = false;
    o.threads = 1;
    o.out = [&](std::string_view t) {
      std::lock_guard lock(m);
      lines.emplace_back(t);
    };
    humus::Runtime rt(o);
    REQUIRE(rt.eval(program).ok());
    rt.run_until_idle();
    std::sort(lines.begin(), lines.end());
    std::string all;
    for (auto& l : lines) all += l;
    return all;
  };
  humus::Options plain;
  std::string out = run(plain);
  CHECK(out.find("standard input is not available in this program (its host left it out)") != std::string::npos);
  CHECK(out.find("#ok, (111, 110, 101, NIL), (116, 119, 111, NIL), NIL") != std::string::npos);  // the lines
  CHECK(out.find("not available") == out.rfind("not available"));                                // only stdin refused
  humus::Options no_clock;
  no_clock.devices.clock = false;
  CHECK(run(no_clock).find("the clock is not available in this program") != std::string::npos);
  humus::Options sandbox;
  sandbox.sandbox = true;
  out = run(sandbox);
  CHECK(out.find("file access is disabled (--sandbox)") != std::string::npos);
  CHECK(out.find("the clock is disabled (--sandbox)") != std::string::npos);
  CHECK(out.find("standard input is disabled (--sandbox)") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("strings the runtime makes are packed, and read as lists through the API") {
  Host h;
  Value s = Value::string("h\xc3\xa9llo");
  CHECK(s.is_pair());
  CHECK(s.is_string());
  CHECK(s.is_list());
  CHECK(s.head().as_int() == 'h');
  CHECK(s.tail().head().as_int() == 0xE9);
  CHECK(s.as_string() == "h\xc3\xa9llo");
  CHECK(s.to_vector().size() == 5);
  CHECK(s == Value::list({Value::integer('h'), Value::integer(0xE9), Value::integer('l'), Value::integer('l'),
                          Value::integer('o')}));
  auto parts = s.tuple_elements(3);
  CHECK(parts[0].as_int() == 'h');
  CHECK(parts[2].as_string() == "llo");
  Value made = h.rt.eval("split(\"a,b\", \",\")").value;
  REQUIRE(made.to_vector().size() == 2);
  CHECK(made.to_vector()[1].as_string() == "b");
  CHECK(h.rt.eval("format(\"~s=~p\", (\"x\", 1))").value.as_string() == "x=1");
}

TEST_CASE("a native function is callable from scripts, with one or two arguments") {
  Host h;
  h.rt.define_function("isqrt", [](const Value& x) {
    int64_t n = x.as_int(), r = 0;
    while ((r + 1) * (r + 1) <= n) ++r;
    return Value::integer(r);
  });
  h.rt.define_function("hyp2", [](const Value& args) {
    auto [a, b] = std::pair(args.head().as_int(), args.tail().as_int());
    return Value::integer(a * a + b * b);
  });
  CHECK(h.rt.eval("isqrt(50)").value.as_int() == 7);
  CHECK(h.rt.eval("isqrt(hyp2(3, 4))").value.as_int() == 5);
  CHECK(h.rt.eval("SEND isqrt(81) TO println").ok());
  CHECK(h.output() == "9\n");

  // A C++ exception fails the statement or event like a runtime error.
  humus::Result r = h.rt.eval("\nSEND isqrt(#x) TO println", "e.hum");
  CHECK(r.status == humus::Result::Status::RuntimeError);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].line == 2);
  CHECK(r.diagnostics[0].message.find("<native isqrt>") != std::string::npos);
  CHECK(r.diagnostics[0].message.find("expected an integer") != std::string::npos);

  // Inside an actor, the failure is reported on the err sink.
  CHECK(h.rt.eval("CREATE f WITH \\x.[ SEND isqrt(x) TO println ]\nSEND #bad TO f").ok());
  CHECK(h.errors().find("runtime error in actor") != std::string::npos);
}

TEST_CASE("call applies a Humus function from C++ and gives its value") {
  Host h;
  REQUIRE(h.rt.eval("DEF fib(n) AS IF $less(n, 2) = TRUE n ELSE add(fib(sub(n, 1)), fib(sub(n, 2)))\n"
                    "DEF swap(a, b) AS b, a\n"
                    "DEF unit() AS #unit\n"
                    "DEF only_zero(0) AS #zero\n"
                    "DEF counter(n) AS \\m.[ BECOME counter(add(n, m)) ]")
              .ok());
  humus::Result r = h.rt.call("fib", 25);
  REQUIRE(r.ok());
  CHECK(r.diagnostics.empty());
  CHECK(r.value.as_int() == 75025);
  // f(a, b) is f applied to the pair (a, b); f() to NIL.
  CHECK(h.rt.call("swap", 1, Value::symbol("x")).value.to_string() == "#x, 1");
  CHECK(h.rt.call("unit").value == Value::symbol("unit"));
  CHECK(h.rt.call("add", Value::integer("123456789012345678901234567890"), 1).value.as_decimal() ==
        "123456789012345678901234567891");
  // An argument the pattern does not match gives ?, as in Humus.
  humus::Result mismatch = h.rt.call("only_zero", 1);
  CHECK(mismatch.ok());
  CHECK(mismatch.value.is_undefined());
  // A function value, a native function and a behavior (whose value is a block).
  Value fib = *h.rt.global("fib");
  CHECK(h.rt.call(fib, 10).value.as_int() == 55);
  Value twice = h.rt.function([](const Value& x) { return Value::integer(x.as_int() * 2); });
  CHECK(h.rt.call(twice, 21).value.as_int() == 42);
  Value behavior = h.rt.call("counter", 0).value;  // the behavior \m.[...]
  CHECK(behavior.is_function());
  CHECK(h.rt.call(behavior, 5).value.kind() == humus::Kind::Block);
  const std::vector<Value> args{Value(3), Value(4)};
  CHECK(h.rt.call_args("swap", args).value.to_string() == "4, 3");
}

TEST_CASE("call reports every failure as a Result, with the error's location") {
  Host h;
  REQUIRE(h.rt.eval("DEF first(p) AS LET (a, _) = $p IN a\n"
                    "DEF deep(n) AS IF $n = 0 0 ELSE add(1, deep(sub(n, 1)))\n"
                    "DEF answer AS 42",
                    "f.hum")
              .ok());
  humus::Result unbound = h.rt.call("nowhere", 1);
  CHECK(unbound.status == humus::Result::Status::RuntimeError);
  CHECK(unbound.value.is_undefined());
  CHECK(unbound.message() == "<call nowhere>: error: no global named 'nowhere'\n");

  CHECK(h.rt.call("answer").message() == "<call answer>: error: not a function: 42\n");
  CHECK(h.rt.call(Value::symbol("x")).message() == "<call>: error: not a function: #x\n");

  humus::Result mismatch = h.rt.call("first", 7);  // LET (a, _) = $7 fails
  CHECK(mismatch.status == humus::Result::Status::RuntimeError);
  REQUIRE(mismatch.diagnostics.size() == 1);
  CHECK(mismatch.diagnostics[0].file == "f.hum");
  CHECK(mismatch.diagnostics[0].line == 1);
  CHECK(mismatch.diagnostics[0].column > 0);
  CHECK(mismatch.diagnostics[0].message.starts_with("runtime error: LET mismatch"));

  h.rt.define_function("boom", [](const Value&) -> Value { throw std::runtime_error("no sensor"); });
  humus::Result thrown = h.rt.call("boom", 1);
  CHECK(thrown.status == humus::Result::Status::RuntimeError);
  CHECK(thrown.message().find("<native boom> threw: no sensor") != std::string::npos);

  humus::Result deep = h.rt.call("deep", 100000000);  // deeper than the VM allows
  CHECK(deep.status == humus::Result::Status::RuntimeError);
  CHECK(deep.message().find("recursion too deep") != std::string::npos);
  CHECK(h.rt.call("deep", 1000).value.as_int() == 1000);  // and the runtime goes on

  CHECK(h.errors().empty());  // nothing was printed
  h.rt.shutdown();
  CHECK_THROWS_AS(h.rt.call("deep", 1), humus::Error);  // a misuse, like every call after shutdown
}

TEST_CASE("calls from several host threads while actors run") {
  Host h(2);
  REQUIRE(h.rt.eval("DEF sum_to(n) AS IF $n = 0 0 ELSE add(n, sum_to(sub(n, 1)))\n"
                    "CREATE echo WITH \\(cust, m).[ SEND m TO cust ]")
              .ok());
  std::atomic<int> right{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        int64_t n = t * 100 + i;
        right += h.rt.call("sum_to", n).value.as_int() == n * (n + 1) / 2;
        right += h.rt.ask(*h.rt.global("echo"), n).get().as_int() == n;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(right.load() == 4 * 50 * 2);
}

TEST_CASE("a native actor receives messages, sends and becomes") {
  Host h;
  // A counter: (cust, #inc) -> replies with the new count; state in become.
  std::function<humus::Behavior(int64_t)> counter = [&](int64_t n) -> humus::Behavior {
    return [n, &counter](humus::ActorContext& cx, const Value& msg) {
      auto parts = msg.tuple_elements(2);
      if (parts[1] == Value::symbol("inc")) {
        cx.send(parts[0], n + 1);
        cx.become(counter(n + 1));
      }
    };
  };
  Value c = h.rt.define_actor("counter", counter(0));
  CHECK(c.is_actor());
  CHECK(h.rt.eval("SEND (println, #inc) TO counter\nSEND (println, #inc) TO counter").ok());
  CHECK(h.output() == "1\n2\n");
  CHECK(h.rt.ask(c, Value::symbol("inc")).get().as_int() == 3);

  // become() to a Humus behavior defined by a script.
  CHECK(h.rt.eval("DEF echo AS \\(cust, m).[ SEND (#echo, m) TO cust ]").ok());
  Value echo_beh = *h.rt.global("echo");
  Value switcher = h.rt.create([echo_beh](humus::ActorContext& cx, const Value& msg) {
    cx.send(msg.head(), Value::symbol("switching"));
    cx.become(echo_beh);
  });
  CHECK(h.rt.ask(switcher, 1).get().symbol_name() == "switching");
  CHECK(h.rt.ask(switcher, 2).get().to_string() == "#echo, 2");

  // self(), create() and send_after() inside a behavior.
  Value maker = h.rt.create([](humus::ActorContext& cx, const Value& msg) {
    Value child = cx.create(cx.runtime().behavior(
        [](humus::ActorContext& cx2, const Value& m) { cx2.send(m, Value::symbol("from_child")); }));
    cx.send_after(std::chrono::milliseconds(5), child, msg.head());
  });
  CHECK(h.rt.ask(maker, Value::nil()).get().symbol_name() == "from_child");
  Value selfie = h.rt.create([](humus::ActorContext& cx, const Value& msg) { cx.send(msg.head(), cx.self()); });
  CHECK(h.rt.ask(selfie, 0).get() == selfie);
}

TEST_CASE("an exception in a native behavior fails only that event") {
  Host h;
  Value a = h.rt.create([](humus::ActorContext& cx, const Value& msg) {
    cx.send(msg.head(), 1);  // dropped: the event fails
    throw std::runtime_error("sensor offline");
  });
  auto f = h.rt.ask(a, 0, std::chrono::milliseconds(500));
  CHECK(f.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
  CHECK(h.errors().find("sensor offline") != std::string::npos);
  CHECK(h.rt.stats().errors >= 1);
  CHECK_THROWS_WITH_AS(f.get(), "humus::Runtime::ask: no reply within 500 ms", humus::Error);
}

TEST_CASE("ask gives up after its timeout; a reply first cancels the timer") {
  Host h;
  CHECK(h.rt.eval("CREATE mute WITH \\_.[]").ok());
  auto f = h.rt.ask(*h.rt.global("mute"), 1, std::chrono::milliseconds(100));
  REQUIRE(f.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  try {
    f.get();
    FAIL("ask did not time out");
  } catch (const humus::Error& e) {
    CHECK(std::string(e.what()) == "humus::Runtime::ask: no reply within 100 ms");
  }
  CHECK(humus::Runtime::kAskTimeout == std::chrono::seconds(30));
  // Answered at once: the default timeout's timer is taken back, so the
  // runtime is idle now, not in 30 seconds.
  CHECK(h.rt.eval("CREATE echo WITH \\(cust, m).[ SEND m TO cust ]").ok());
  CHECK(h.rt.ask(*h.rt.global("echo"), 7).get().as_int() == 7);
  CHECK(h.rt.run_for(std::chrono::milliseconds(2000)));
}

TEST_CASE("ask a Humus actor; send from the host") {
  Host h;
  CHECK(h.rt.eval("CREATE doubler WITH \\(cust, n).[ SEND mul(n, 2) TO cust ]").ok());
  Value d = *h.rt.global("doubler");
  CHECK(h.rt.ask(d, 21).get().as_int() == 42);
  CHECK(h.rt.ask(d, Value::integer("1000000000000000000000")).get().as_decimal() == "2000000000000000000000");
  h.rt.send(*h.rt.global("println"), Value::tuple({Value::symbol("from"), Value::string("C")}));
  CHECK(h.output() == "#from, 67, NIL\n");
  CHECK_THROWS_AS(h.rt.send(1, 2), humus::Error);
  CHECK(h.rt.run_for(std::chrono::milliseconds(1000)));
}

TEST_CASE("a host's handle keeps an actor cycle alive; dropped, collect_cycles frees it") {
  Host h;
  CHECK(h.rt.eval(R"(
DEF peer(other, name) AS \(cust, m).[
  CASE m OF
  #ping : [ SEND (cust, #pong) TO other ]
  #pong : [ SEND name TO cust ]
  END
]
CREATE maker WITH \(cust, _).[
  CREATE a WITH peer(b, #a)
  CREATE b WITH peer(a, #b)
  SEND a TO cust
]
)")
            .ok());
  Value maker = *h.rt.global("maker");
  const int64_t before = h.rt.stats().live_actors;
  std::optional<Value> a = h.rt.ask(maker, Value::nil()).get();
  h.rt.run_until_idle();
  h.rt.collect_cycles();
  CHECK(h.rt.stats().live_actors == before + 2);  // held by the host: kept
  CHECK(h.rt.stats().actors_collected == 0);
  CHECK(h.rt.ask(*a, Value::symbol("ping")).get().to_string() == "#b");
  a.reset();  // now only the cycle holds them
  h.rt.run_until_idle();
  h.rt.collect_cycles();
  humus::RuntimeStats s = h.rt.stats();
  CHECK(s.live_actors == before);
  CHECK(s.actors_collected == 2);
  CHECK(s.collections == 2);
}

TEST_CASE("the logger hook receives asynchronous diagnostics") {
  std::mutex m;
  std::vector<std::pair<humus::LogLevel, std::string>> logged;
  humus::Options o;
  o.prelude = false;
  o.warn_unhandled = true;
  o.logger = [&](humus::LogLevel level, std::string_view text) {
    std::lock_guard lock(m);
    logged.emplace_back(level, std::string(text));
  };
  humus::Runtime rt(o);
  CHECK(rt.eval("CREATE a WITH \\#only.[ THROW #no ]\nSEND #x TO a\nSEND #only TO a").ok());
  rt.run_until_idle();
  std::lock_guard lock(m);
  bool warning = false, error = false;
  for (auto& [level, text] : logged) {
    warning |= level == humus::LogLevel::Warning && text.find("did not handle") != std::string::npos;
    error |= level == humus::LogLevel::Error && text.find("runtime error") != std::string::npos;
  }
  CHECK(warning);
  CHECK(error);
}

TEST_CASE("calls from several host threads at once") {
  Host h(4);
  std::atomic<int64_t> total{0};
  h.rt.define_function("bump", [&](const Value& x) {
    total += x.as_int();
    return x;
  });
  CHECK(h.rt.eval("CREATE sq WITH \\(cust, n).[ SEND mul(n, n) TO cust ]\n"
                  "CREATE sink WITH \\n.[ SEND bump(n) TO println ]")
            .ok());
  Value sq = *h.rt.global("sq"), sink = *h.rt.global("sink");
  constexpr int kThreads = 4, kEach = 200;
  std::atomic<int64_t> asked{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        int64_t n = t * kEach + i;
        h.rt.send(sink, 1);
        asked += h.rt.ask(sq, n).get().as_int() == n * n;
        if (i % 50 == 0) {
          humus::Result r = h.rt.eval("DEF g" + std::to_string(t) + " AS " + std::to_string(i));
          CHECK(r.ok());
          CHECK(h.rt.global("println").has_value());
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  h.rt.run_until_idle();
  CHECK(asked.load() == kThreads * kEach);
  CHECK(total.load() == kThreads * kEach);
  CHECK(h.rt.global("g3")->as_int() == 150);
  CHECK(h.rt.stats().events >= uint64_t(3 * kThreads * kEach));
}

// The text of the humus::Error that `f` throws ("no exception" if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const humus::Error& e) {
    return e.what();
  }
  return "no exception";
}

TEST_CASE("shutdown breaks pending asks; later calls throw, saying why") {
  Host h;
  Value hole = h.rt.create([](humus::ActorContext&, const Value&) {});  // never replies
  auto f = h.rt.ask(hole, 1, std::chrono::milliseconds(0));  // no timeout: its timer would keep the runtime busy
  h.rt.run_until_idle();
  h.rt.shutdown();
  CHECK(h.rt.is_shut_down());
  CHECK(error_of([&] { f.get(); }) == "humus::Runtime::ask: the runtime shut down before a reply");
  CHECK(error_of([&] { h.rt.eval("1"); }) == "humus::Runtime: used after shutdown()");
  CHECK(error_of([&] { h.rt.send(hole, 1); }) == "humus::Runtime: used after shutdown()");
  CHECK(error_of([&] { h.rt.call("f"); }) == "humus::Runtime: used after shutdown()");
  CHECK(h.rt.run_for(std::chrono::milliseconds(1)));
  h.rt.run_until_idle();  // returns at once
  h.rt.shutdown();        // twice is fine
}

TEST_CASE("run_for gives false while a timer is pending") {
  Host h;
  CHECK(h.rt.eval("AFTER 300 SEND #late TO println").ok());
  CHECK_FALSE(h.rt.run_for(std::chrono::milliseconds(20)));
  CHECK(h.output() == "#late\n");
}

TEST_CASE("a resource limit stops a runaway program and the host can ask why") {
  humus::Options o;
  o.threads = 1;
  o.prelude = false;
  o.out = [](std::string_view) {};
  o.err = [](std::string_view) {};
  o.limits.max_events = 1000;
  humus::Runtime rt(o);
  CHECK_FALSE(rt.limit_reached());
  CHECK(rt.eval("CREATE r WITH \\m.[ SEND m TO SELF ]\nSEND 0 TO r").ok());
  rt.run_until_idle();
  REQUIRE(rt.limit_reached());
  CHECK(rt.limit_reached()->find("1000") != std::string::npos);
  CHECK(rt.stats().events <= 1000 + 32);  // at most one turn's budget past the limit
}

TEST_CASE("a topic replica count JetStream does not take is refused at construction, saying so") {
  for (int64_t bad : {int64_t(0), int64_t(6)}) {
    humus::Options o;
    o.out = [](std::string_view) {};
    o.err = [](std::string_view) {};
    o.cluster.topic_replicas = bad;
    CHECK(error_of([&] { humus::Runtime rt(o); }) ==
          "humus::Runtime: topic_replicas must be from 1 to 5, not " + std::to_string(bad));
  }
  humus::Options o;
  o.out = [](std::string_view) {};
  o.cluster.topic_replicas = 5;  // unused without a url (topics in memory), but valid
  humus::Runtime rt(o);
  CHECK(rt.eval("1").ok());
}

TEST_CASE("interrupt, from another thread, undoes an endless event and an endless eval; the runtime goes on") {
  Host h(2);
  CHECK(h.rt.eval("DEF spin(n) AS spin(add(n, 1))\nDEF kept AS 42").ok());
  CHECK(h.rt.eval("CREATE looper WITH \\m.[ SEND spin(m) TO println ]\nSEND 0 TO looper").ok());
  CHECK_FALSE(h.rt.run_for(std::chrono::milliseconds(100)));  // it loops
  bool idle = false;  // the event is undone: idle (an interrupt before it began is not for it)
  for (int i = 0; i < 100 && !idle; ++i) {
    h.rt.interrupt();
    idle = h.rt.run_for(std::chrono::milliseconds(100));
  }
  CHECK(idle);
  // An eval that never returns, interrupted from a host thread.
  // (Again and again until it returns: an interrupt before the eval began
  // is not for it.)
  std::atomic<bool> returned{false};
  std::thread stopper([&] {
    while (!returned.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      h.rt.interrupt();
    }
  });
  humus::Result r = h.rt.eval("spin(0)");
  returned.store(true);
  stopper.join();
  CHECK(r.status == humus::Result::Status::RuntimeError);
  CHECK(r.message().find("interrupted") != std::string::npos);
  // Everything defined before is there; events run as before.
  humus::Result kept = h.rt.eval("add(kept, 1)");
  REQUIRE(kept.ok());
  CHECK(kept.value.as_int() == 43);
  CHECK(h.rt.eval("SEND #after TO println").ok());
  CHECK(h.output() == "#after\n");
  std::lock_guard lock(h.mutex);
  CHECK(h.err.find("runtime error in actor looper@") != std::string::npos);
  CHECK(h.err.find(": interrupted") != std::string::npos);
}

// Each accessor of the wrong kind, and a bad integer or string, throws with its message.
TEST_CASE("misuses of Value say what was expected and what was given") {
  CHECK(error_of([] { Value(1).head(); }) == "humus::Value: expected a pair, got 1");
  CHECK(error_of([] { Value::symbol("x").tail(); }) == "humus::Value: expected a pair, got #x");
  CHECK(error_of([] { Value::symbol("x").as_decimal(); }) == "humus::Value: expected an integer, got #x");
  CHECK(error_of([] { Value::integer("123456789012345678901234567890").as_int(); }) ==
        "humus::Value: expected an integer that fits in 64 bits, got 123456789012345678901234567890");
  CHECK(error_of([] { Value::symbol("x").as_int(); }) == "humus::Value: expected an integer, got #x");
  CHECK(error_of([] { Value(1).as_bool(); }) == "humus::Value: expected a boolean, got 1");
  CHECK(error_of([] { Value(1).symbol_name(); }) == "humus::Value: expected a symbol, got 1");
  CHECK(error_of([] { Value::tuple({1, 2, 3}).to_vector(); }) == "humus::Value: expected a list, got 1, 2, 3");
  CHECK(error_of([] { Value::tuple({1, 2}).tuple_elements(3); }) == "humus::Value: expected a 3-tuple, got 1, 2");
  CHECK(error_of([] { Value::list({-1}).as_string(); }) ==
        "humus::Value: expected a string (a list of code points), got -1, NIL");
  // A long value is cut short.
  CHECK(error_of([] { Value::integer(std::string(100, '7')).as_int(); }) ==
        "humus::Value: expected an integer that fits in 64 bits, got " + std::string(57, '7') + "...");
  CHECK(error_of([] { Value::integer("12x"); }) == "humus::Value::integer: not a decimal integer: '12x'");
  CHECK(error_of([] { Value::integer("-"); }) == "humus::Value::integer: not a decimal integer: '-'");
  CHECK(error_of([] { Value::string("\xC3"); }) == "humus::Value::string: invalid UTF-8");
}

// Non-actors, non-functions and empty std::functions given to Runtime and ActorContext.
TEST_CASE("misuses of Runtime name the call and the bad argument") {
  Host h;
  CHECK(error_of([&] { h.rt.send(1, 2); }) == "humus::Runtime::send: not an actor: 1");
  CHECK(error_of([&] { h.rt.ask(Value::symbol("x"), 2); }) == "humus::Runtime::ask: not an actor: #x");
  CHECK(error_of([&] { h.rt.create(Value(7)); }) == "humus::Runtime::create: not a function: 7");
  CHECK(error_of([&] { h.rt.function(humus::Function()); }) == "humus::Runtime::function: empty std::function");
  CHECK(error_of([&] { h.rt.behavior(humus::Behavior()); }) == "humus::Runtime::behavior: empty std::function");
  // Inside a native behavior: the misuse fails that event, and the report names it.
  Value bad_send = h.rt.create([](humus::ActorContext& cx, const Value&) { cx.send(Value(5), 1); });
  Value bad_become = h.rt.create([](humus::ActorContext& cx, const Value&) { cx.become(Value(6)); });
  Value bad_create = h.rt.create([](humus::ActorContext& cx, const Value&) { cx.create(Value::nil()); });
  Value bad_after = h.rt.create(
      [](humus::ActorContext& cx, const Value&) { cx.send_after(std::chrono::milliseconds(1), Value(8), 1); });
  for (const Value& a : {bad_send, bad_become, bad_create, bad_after}) h.rt.send(a, Value::symbol("go"));
  std::string err = h.errors();
  CHECK(err.find("<native behavior> threw: humus::ActorContext::send: not an actor: 5\n") != std::string::npos);
  CHECK(err.find("<native behavior> threw: humus::ActorContext::become: not a function: 6\n") != std::string::npos);
  CHECK(err.find("<native behavior> threw: humus::ActorContext::create: not a function: NIL\n") != std::string::npos);
  CHECK(err.find("<native behavior> threw: humus::ActorContext::send_after: not an actor: 8\n") != std::string::npos);
  CHECK(h.rt.stats().errors == 4);
}

// A native function throwing a non-std::exception: "threw an exception", from call and from a script.
TEST_CASE("a native function that throws something not a std::exception fails the call") {
  Host h;
  h.rt.define_function("odd", [](const Value&) -> Value { throw 42; });
  humus::Result r = h.rt.call("odd", 1);
  CHECK(r.status == humus::Result::Status::RuntimeError);
  CHECK(r.message() == "<call odd>: error: runtime error: <native odd> threw an exception\n");
  // And from a script: a runtime error at the statement that called it.
  humus::Result s = h.rt.eval("SEND odd(1) TO println", "s.hum");
  CHECK(s.status == humus::Result::Status::RuntimeError);
  CHECK(s.message() == "s.hum:1:1: error: runtime error: <native odd> threw an exception\n");
}

// A prelude that fails (a broken one first on $HUMUS_PATH): the constructor throws with its diagnostics.
TEST_CASE("a prelude that does not load: Runtime's constructor says why") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("humus_bad_prelude_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "prelude.hum") << "DEF ok AS 1\nSEND 1 println\n";
  const char* old = std::getenv("HUMUS_PATH");
  const std::string saved = old ? old : "";
  ::setenv("HUMUS_PATH", dir.c_str(), 1);
  humus::Options o;
  o.err = [](std::string_view) {};
  std::string what = error_of([&] { humus::Runtime rt(o); });
  if (old)
    ::setenv("HUMUS_PATH", saved.c_str(), 1);
  else
    ::unsetenv("HUMUS_PATH");
  fs::remove_all(dir);
  CHECK(what == "humus::Runtime: the prelude did not load:\n" + (dir / "prelude.hum").string() +
                    ":2:8: error: expected 'TO' after the message of SEND\n");
}

TEST_CASE("the version") { CHECK(std::string(humus::version()).find('.') != std::string::npos); }

// The global actor `cluster` (docs/distribution.md). Without a URL the
// cluster is this runtime alone, with topics in memory.
TEST_CASE("the cluster actor without a broker: publish, lookup, nodes, a topic") {
  Host h;
  Value cluster = *h.rt.global("cluster");
  CHECK(h.rt.eval("CREATE doubler WITH \\(cust, n).[ SEND mul(n, 2) TO cust ]").ok());
  Value d = *h.rt.global("doubler");
  CHECK(h.rt.ask(cluster, Value::tuple({Value::symbol("publish"), Value::symbol("dbl"), d})).get().to_string() ==
        "#published, #dbl");
  Value found = h.rt.ask(cluster, Value::tuple({Value::symbol("lookup"), Value::symbol("dbl")})).get();
  CHECK(found == d);
  CHECK(h.rt.ask(found, 5).get().as_int() == 10);
  CHECK(h.rt.ask(cluster, Value::symbol("nodes")).get().to_string() == "#local, NIL");
  Value t = h.rt.ask(cluster, Value::tuple({Value::symbol("topic"), Value::string("events")})).get();
  CHECK(h.rt.eval("CREATE shout WITH \\v.[ SEND (#got, v) TO println ]").ok());
  h.rt.send(t, Value::tuple({Value::symbol("subscribe"), Value::symbol("g"), *h.rt.global("shout")}));
  h.rt.send(t, 7);
  CHECK(h.output() == "#got, 7\n");
  CHECK(h.rt.stats().topic_appended == 1);
  CHECK(h.rt.stats().topic_delivered == 1);
  h.rt.leave_cluster();
  CHECK(h.rt.run_for(std::chrono::milliseconds(1000)));
}

TEST_CASE("Options::cluster with no broker there: a clear error that never shows the password") {
  humus::Options o;
  o.cluster.url = "nats://alice:s3cret@127.0.0.1:1";
  try {
    humus::Runtime rt(o);
    FAIL("joined a cluster with no broker");
  } catch (const humus::Error& e) {
    std::string what = e.what();
    CHECK(what.find("humus::Runtime: ") == 0);
    CHECK(what.find("127.0.0.1:1") != std::string::npos);
    CHECK(what.find("s3cret") == std::string::npos);
  }
}

// Live, on the ctest fixture's nats-server (cluster.embed runs only this;
// unit.embed leaves it out): two runtimes in one host join one cluster.
TEST_CASE("NATS: two embedded runtimes, one cluster: lookup across and ask back") {
  const char* dir = std::getenv("NATS_DIR");
  REQUIRE(dir != nullptr);
  std::ifstream f(std::string(dir) + "/url");
  std::string url;
  std::getline(f, url);
  REQUIRE(!url.empty());
  auto options = [&](const char* node) {
    humus::Options o;
    o.threads = 2;
    o.cluster.url = url;
    o.cluster.node = node;
    o.cluster.name = "embed_" + std::to_string(getpid());
    return o;
  };
  humus::Runtime a(options("a")), b(options("b"));
  CHECK(a.eval("CREATE doubler WITH \\(cust, n).[ SEND mul(n, 2) TO cust ]").ok());
  Value pub = Value::tuple({Value::symbol("publish"), Value::symbol("dbl"), *a.global("doubler")});
  CHECK(a.ask(*a.global("cluster"), pub).get().to_string() == "#published, #dbl");
  Value remote = b.ask(*b.global("cluster"), Value::tuple({Value::symbol("lookup"), Value::symbol("dbl")})).get();
  CHECK(b.ask(remote, Value::integer("100000000000000000000")).get().as_decimal() == "200000000000000000000");
  Value nodes = b.ask(*b.global("cluster"), Value::symbol("nodes")).get();
  CHECK(nodes.to_string().find("#a") != std::string::npos);
  CHECK(b.stats().remote_sent >= 1);
  CHECK(a.stats().remote_received >= 1);
  a.leave_cluster();
  b.leave_cluster();
  CHECK(a.run_for(std::chrono::seconds(30)));
  CHECK(b.run_for(std::chrono::seconds(30)));
}
