// Guest turns (runtime/dispatcher.hpp): a message that arrives from outside
// the pool while every worker is parked runs on the arriving thread; an
// event that fails there, runs long, or has no room on that thread's stack
// is given back undone and runs once, whole, on a worker.
#include <doctest/doctest.h>
#include <pthread.h>

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "interpreter/interpreter.hpp"
#include "runtime/mailbox.hpp"
#include "tests/unit/runtime/capturing_options.hpp"

namespace {

using humus::interp::Interpreter;
namespace rt = humus::rt;

struct Fixture {
  std::mutex m;
  std::string out, err;
  std::unique_ptr<Interpreter> interp;

  explicit Fixture(const std::string& code) {
    rt::RuntimeOptions o = humus::test::capturing_options(2, m, out, err);
    interp = std::make_unique<Interpreter>(o);
    auto src = std::make_shared<humus::ast::Source>(humus::ast::Source{"guest.hum", code});
    Interpreter::Outcome outcome = Interpreter::Outcome::Ok;
    humus::engine::CompiledUnit* unit = interp->load(src, &outcome);
    REQUIRE(unit);
    REQUIRE(interp->run(*unit) == Interpreter::Outcome::Ok);
    interp->start();
    interp->wait_idle();  // every worker parked
  }
  rt::Runtime& runtime() { return interp->runtime(); }
  // Sends `n` to the global actor `name` as a message from another process
  // arrives (Runtime::send_chain), on the calling thread.
  void arrive(const char* name, int64_t n) {
    auto slot = runtime().globals().find(name);
    REQUIRE(slot);
    rt::Value target = runtime().globals().get(*slot);
    REQUIRE(target.is_actor());
    auto* msg = new rt::Message;
    msg->payload = rt::Value::small(n);
    runtime().send_chain(target.as<rt::Actor>(), msg, msg, 1);
  }
  std::string output() {
    std::lock_guard lock(m);
    return out;
  }
};

// Runs `f` on a thread of its own with a `stack`-byte stack.
void on_thread(size_t stack, const std::function<void()>& f) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, stack);
  pthread_t t;
  auto* job = new std::function<void()>(f);
  REQUIRE(pthread_create(
              &t, &attr,
              [](void* p) -> void* {
                std::unique_ptr<std::function<void()>> j(static_cast<std::function<void()>*>(p));
                (*j)();
                return nullptr;
              },
              job) == 0);
  pthread_attr_destroy(&attr);
  pthread_join(t, nullptr);
}

}  // namespace

TEST_CASE("a message from outside runs on the arriving thread while every worker is parked") {
  Fixture f("CREATE echo WITH \\n.[ SEND (#got, n) TO println ]");
  std::string seen;
  on_thread(8 << 20, [&] {
    f.arrive("echo", 7);
    seen = f.output();  // committed before send_chain returned: it ran here
  });
  CHECK(seen == "#got, 7\n");
  f.interp->wait_idle();
  rt::RuntimeStats s = f.runtime().stats();
  CHECK(s.guest_events == 2);  // echo's event, and println's at its commit
  CHECK(s.handed_back == 0);
  CHECK(f.output() == "#got, 7\n");
}

TEST_CASE("an event that runs long on the arriving thread is given back and runs once on a worker") {
  // Some tens of milliseconds of calls, far beyond a guest's slice.
  Fixture f(R"(
    DEF count(n) AS IF $n = 0 0 ELSE count(sub(n, 1))
    CREATE slow WITH \n.[ SEND (#done, count(n)) TO println ]
  )");
  on_thread(8 << 20, [&] { f.arrive("slow", 3000000); });
  CHECK(f.runtime().stats().handed_back == 1);
  f.interp->wait_idle();
  rt::RuntimeStats s = f.runtime().stats();
  CHECK(f.output() == "#done, 0\n");
  CHECK(s.guest_events == 0);
  CHECK(s.handed_back == 1);
}

TEST_CASE("an event that fails on the arriving thread is given back and its error reported once") {
  Fixture f("CREATE thrower WITH \\n.[ THROW (#bad, n) ]");
  on_thread(8 << 20, [&] { f.arrive("thrower", 3); });
  f.interp->wait_idle();
  rt::RuntimeStats s = f.runtime().stats();
  CHECK(s.handed_back == 1);
  CHECK(s.errors == 1);
  std::lock_guard lock(f.m);
  CHECK(f.err.find("#bad, 3") != std::string::npos);
  CHECK(f.err.find("#bad, 3") == f.err.rfind("#bad, 3"));
}

TEST_CASE("a thread without stack room for an event gives it back: it runs on a worker") {
  Fixture f("CREATE echo WITH \\n.[ SEND (#got, n) TO println ]");
  // 256 KB: less than the guard's 1 MB margin, so every call fails there.
  on_thread(256 << 10, [&] { f.arrive("echo", 9); });
  f.interp->wait_idle();
  rt::RuntimeStats s = f.runtime().stats();
  CHECK(s.handed_back == 1);
  CHECK(s.errors == 0);
  CHECK(f.output() == "#got, 9\n");
}
