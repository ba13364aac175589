// Benched workers (runtime/dispatcher.hpp, "Benched workers") while every
// worker stands paused for a job (run_paused: the cycle collector's looks).
// A benched worker's wait is timed to the governor's next step, and no
// worker steps the governor in a pause: a step that fell due in one made
// that wait time out at once, over and over, for the rest of the pause
// (the test below: 1,675 wake-ups in a 50 ms pause).
// And while every worker is parked there is nothing for a step to measure.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "native_actors.hpp"
#include "runtime/context.hpp"
#include "runtime/dispatcher.hpp"

using humus::rt::Actor;
using humus::rt::Context;
using humus::rt::Dispatcher;
using humus::rt::EventRunner;
using humus::rt::GovernorSettings;
using humus::rt::Value;
using humus::rt::test::TestRuntime;

namespace {

// Runs no actor (none is sent anything): the dispatcher's own threads alone.
class NoEvents : public EventRunner {
 public:
  explicit NoEvents(humus::rt::Runtime& rt) : rt_(rt) {}
  std::unique_ptr<Context> make_context() override { return std::make_unique<Context>(rt_); }
  uint64_t run_turn(Actor&, Context&, uint64_t) override { return 0; }
  bool may_run_outside(const Actor&) const override { return false; }
  void send_queued() override {}
  void out_of_memory() noexcept override {}

 private:
  humus::rt::Runtime& rt_;
};

// One actor's turns of 5 ms each, one message a turn, each sending the
// next: the first worker stays busy (a paused worker that was busy rests,
// and counts as active), and the events are too long for a rate.
class BusyTurns : public NoEvents {
 public:
  using NoEvents::NoEvents;
  Dispatcher* d = nullptr;
  std::atomic<bool> busy{true};
  uint64_t run_turn(Actor& actor, Context&, uint64_t) override {
    if (humus::rt::Message* m = actor.mailbox.pop()) humus::rt::free_message(m);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (busy.load()) d->enqueue(&actor, Value::small(1));
    return 1;
  }
};

}  // namespace

TEST_CASE("a benched worker sleeps through a pause, however soon the governor's step falls due") {
  TestRuntime host(1);  // for the workers' contexts, and the actor
  BusyTurns runner(host.rt);
  GovernorSettings settings;
  settings.window = std::chrono::milliseconds(1);
  settings.first_interval = std::chrono::milliseconds(1);
  settings.max_interval = std::chrono::milliseconds(2);  // a step due every millisecond or two
  Dispatcher d(runner, 2, 100, 1, settings);
  runner.d = &d;
  const Value actor = host.rt.new_actor(Value());
  d.start();
  d.enqueue(actor.as<Actor>(), Value::small(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the second worker benched
  REQUIRE(d.stats().workers_allowed == 1);

  uint64_t during = 0;
  const bool ran = d.run_paused(
      [&] {
        const uint64_t before = d.stats().bench_wakes;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));  // some 25 steps fall due meanwhile
        during = d.stats().bench_wakes - before;
      },
      std::chrono::seconds(5));
  REQUIRE(ran);
  // Asleep until the pause ends: one wake-up for the step that fell due as
  // the pause began, and room for a spurious one or two (it was thousands).
  CHECK(during <= 3);
  runner.busy = false;
  d.wait_idle();
  d.stop();
}

TEST_CASE("a benched worker sleeps while every worker is parked") {
  TestRuntime host(1);
  NoEvents runner(host.rt);
  Dispatcher d(runner, 2, 100, 1, GovernorSettings{});
  d.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // benched, and the first worker parked
  REQUIRE(d.stats().workers_allowed == 1);
  const uint64_t before = d.stats().bench_wakes;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  // It was 177 wake-ups a second, stepping a governor with no event to count.
  CHECK(d.stats().bench_wakes - before <= 2);
  d.stop();
}
