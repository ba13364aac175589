#include "runtime/deadline.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using humus::rt::deadline_after;
using humus::rt::deadline_after_ms;
using humus::rt::SteadyClock;

TEST_CASE("deadlines add exactly when the sum fits") {
  const auto now = SteadyClock::now();
  CHECK(deadline_after_ms(now, 1500) - now == std::chrono::milliseconds(1500));
  CHECK(deadline_after_ms(now, 0) == now);
  CHECK(deadline_after_ms(now, -5) == now);
  CHECK(deadline_after(now, 0.25) - now == std::chrono::milliseconds(250));
  CHECK(deadline_after(now, -1.0) == now);
}

TEST_CASE("deadlines past the clock's range saturate to never") {
  const auto now = SteadyClock::now();
  const auto never = SteadyClock::time_point::max();
  // About 9.2e12 ms is where now + ms overflowed the nanosecond count.
  CHECK(deadline_after_ms(now, 10'000'000'000'000) == never);
  CHECK(deadline_after_ms(now, std::numeric_limits<int64_t>::max()) == never);
  CHECK(deadline_after_ms(now, 9'000'000'000'000) < never);
  CHECK(deadline_after_ms(now, 9'000'000'000'000) > now);
  CHECK(deadline_after(now, 1e10) == never);
  CHECK(deadline_after(now, 1e300) == never);
  CHECK(deadline_after(now, std::numeric_limits<double>::infinity()) == never);
  CHECK(deadline_after(now, std::nan("")) == never);
}
