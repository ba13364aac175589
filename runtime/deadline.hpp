// Deadlines on the steady clock that saturate instead of overflowing.
//
// steady_clock counts nanoseconds in 64 bits, about 292 years: a delay of
// 10^13 ms (AFTER 10000000000000 SEND ...) or a --timeout of 1e10 s added
// to now() overflows, which is undefined behaviour and in practice a time in
// the past (the timer fires at once). A deadline past the clock's range is
// "never": time_point::max().
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>

namespace humus::rt {

using SteadyClock = std::chrono::steady_clock;

// `from` plus `seconds` (negative counts as 0; NaN and anything past the
// clock's range give max()).
inline SteadyClock::time_point deadline_after(SteadyClock::time_point from, double seconds) {
  if (!(seconds > 0)) return std::isnan(seconds) ? SteadyClock::time_point::max() : from;
  const double room = std::chrono::duration<double>(SteadyClock::time_point::max() - from).count();
  if (seconds >= room) return SteadyClock::time_point::max();
  return from + std::chrono::duration_cast<SteadyClock::duration>(std::chrono::duration<double>(seconds));
}

// `from` plus `ms` milliseconds, exactly when it fits.
inline SteadyClock::time_point deadline_after_ms(SteadyClock::time_point from, int64_t ms) {
  if (ms <= 0) return from;
  using Ms = std::chrono::milliseconds;
  const auto room = std::chrono::duration_cast<Ms>(SteadyClock::time_point::max() - from).count();
  if (ms >= room) return SteadyClock::time_point::max();
  return from + Ms(ms);
}

}  // namespace humus::rt
