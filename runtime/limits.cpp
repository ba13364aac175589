#include "runtime/limits.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>

#include "runtime/deadline.hpp"
#include "runtime/errors.hpp"
#include "runtime/memory_meter.hpp"

namespace humus::rt {

namespace detail {
thread_local IntegerLimit tl_integer_limit;
}

namespace {

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", s);
  return buf;
}
}  // namespace

std::string limit_message(LimitKind kind, const Limits& limits) {
  switch (kind) {
    case LimitKind::Events:
      return "--max-events " + std::to_string(limits.max_events) + " reached";
    case LimitKind::Actors:
      return "--max-actors " + std::to_string(limits.max_actors) + " reached";
    case LimitKind::Memory:
      return "--max-memory " + format_byte_size(limits.max_memory) + " reached";
    case LimitKind::Timeout:
      return "--timeout " + format_seconds(limits.timeout) + " reached";
    case LimitKind::Interrupted:
      return "interrupted";
    case LimitKind::OutOfMemory:
      return "out of memory";
    case LimitKind::DeclaredDown:
      return "this node was declared down by the cluster";
    case LimitKind::None:
      break;
  }
  return "no limit reached";
}

std::optional<uint64_t> parse_byte_size(std::string_view text) {
  size_t i = 0;
  uint64_t n = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (__builtin_mul_overflow(n, uint64_t(10), &n) || __builtin_add_overflow(n, uint64_t(text[i] - '0'), &n))
      return std::nullopt;
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string_view suffix = text.substr(i);
  unsigned shift = 0;
  if (!suffix.empty()) {
    switch (std::toupper(static_cast<unsigned char>(suffix[0]))) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      case 'T':
        shift = 40;
        break;
      case 'B':
        shift = 0;
        break;
      default:
        return std::nullopt;
    }
    std::string_view rest = suffix.substr(1);
    if (shift != 0 && (rest == "B" || rest == "b" || rest == "iB" || rest == "ib")) rest = {};
    if (!rest.empty()) return std::nullopt;
  }
  if (shift && n > (UINT64_MAX >> shift)) return std::nullopt;
  return n << shift;
}

std::string format_byte_size(uint64_t bytes) {
  static const char* units[] = {"T", "G", "M", "K"};
  for (unsigned i = 0; i < 4; ++i) {
    unsigned shift = 40 - 10 * i;
    uint64_t unit = uint64_t(1) << shift;
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes >> shift) + units[i];
  }
  return std::to_string(bytes);
}

uint64_t resident_bytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long long size = 0, resident = 0;
  int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (got != 2) return 0;
  return uint64_t(resident) * uint64_t(sysconf(_SC_PAGESIZE));
}

IntegerLimit IntegerLimit::of(const Limits& limits) {
  if (limits.max_integer) return {limits.max_integer, 0};
  if (limits.max_memory) return {limits.max_memory / 8, limits.max_memory};
  return {};
}

void integer_too_large(uint64_t bits) {
  const uint64_t mem = detail::tl_integer_limit.max_memory;
  std::string why = mem ? "over an eighth of --max-memory " + format_byte_size(mem)
                        : "over the " + format_byte_size(integer_limit()) + " limit; see --max-memory";
  runtime_error({}, "integer too large (" + std::to_string(bits) + " bits, " + why + ")");
}

// ------------------------------------------------------------- the monitor

namespace {
// CPU time used by every thread of this process so far.
std::chrono::nanoseconds process_cpu_time() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}
}  // namespace

LimitMonitor::LimitMonitor(const Limits& limits, std::function<void(LimitKind)> trip,
                           std::function<LimitKind()> tripped, std::function<uint64_t()> progress)
    : limits_(limits),
      trip_(std::move(trip)),
      tripped_(std::move(tripped)),
      progress_(std::move(progress)),
      start_(limits.started != std::chrono::steady_clock::time_point{} ? limits.started
                                                                       : std::chrono::steady_clock::now()) {
  thread_ = std::thread([this] { thread_main(); });
}

void LimitMonitor::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LimitMonitor::thread_main() {
  try {
    watch();
  } catch (const std::bad_alloc&) {  // wording a message (on_stuck) found no memory
    trip_(LimitKind::OutOfMemory);
  }
}

void LimitMonitor::watch() {
  using Clock = std::chrono::steady_clock;
  const auto deadline = limits_.timeout > 0 ? deadline_after(start_, limits_.timeout) : Clock::time_point::max();
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    if (tripped_() != LimitKind::None) {
      // Stopped (by us or a worker): the runtime should go idle and be
      // stopped soon. If for kStuckGrace no event ends and no queued
      // message is dropped while it is not idle, some event does not
      // finish. (Dropping millions of queued messages takes longer than
      // that on a busy core, and is no reason to give up: issue 34.)
      // kStuckGrace of the process's CPU time, not only of the clock's: a
      // process that waits for a core (other programs, a sanitizer's
      // build beside it) is not stuck, and it said so under load.
      uint64_t seen = progress_();
      auto cpu_seen = process_cpu_time();
      while (!cv_.wait_for(lock, kStuckGrace, [this] { return stopping_; })) {
        const uint64_t now = progress_();
        if (now != seen || now == kIdle) {
          seen = now;
          cpu_seen = process_cpu_time();
          continue;
        }
        if (process_cpu_time() - cpu_seen >= kStuckGrace && limits_.on_stuck) {
          limits_.on_stuck(limit_message(tripped_(), limits_));
          break;
        }
      }
      cv_.wait(lock, [this] { return stopping_; });
      break;
    }
    auto next = Clock::now() + kMonitorPeriod;
    if (next > deadline) next = deadline;
    cv_.wait_until(lock, next, [this] { return stopping_; });
    if (stopping_) break;
    if (Clock::now() >= deadline) {
      trip_(LimitKind::Timeout);
    } else if (limits_.max_memory && (uint64_t(std::max<int64_t>(memory::in_use(), 0)) >= limits_.max_memory ||
                                      resident_bytes() >= limits_.max_memory)) {
      trip_(LimitKind::Memory);
    }
  }
}

}  // namespace humus::rt
