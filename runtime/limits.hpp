// Resource limits (in the spirit of uFork's "sponsors"), see docs/reliability.md.
//
// A run may be given a budget of message-events, of actors, of resident
// memory and of wall time. Exceeding one stops the run: the runtime drops
// every queued message and pending timer (the Dispatcher's dropping mode),
// the host is told which limit it was, and the process stays healthy.
//
// None of it costs the hot path anything worth measuring:
//   - events: each worker counts its own events (it already does, for stats);
//     run_event compares that count with the limit, and every 1024 events
//     sums all workers' counts (plain loads, no shared write);
//   - actors: Runtime::new_actor already takes a number from an atomic
//     counter; the limit is one compare against it;
//   - memory: where allocations are counted (runtime/memory_meter.hpp, the
//     humus command), an event's allocation past the cap stops the run at
//     once; a monitor thread compares the count and the resident set size
//     (/proc/self/statm) with the cap every 10 ms; big-integer arithmetic
//     checks the size of its result before GMP allocates it (so a gigantic
//     integer is a runtime error, not a visit from the OOM killer);
//   - time: the same monitor thread.
// An event that never ends at a safe point (a native built-in over a huge
// value) cannot be interrupted; when for a grace period no event ends and no
// message is dropped, the monitor calls Limits::on_stuck, and the humus
// command then exits.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace humus::rt {

struct Limits {
  uint64_t max_events = 0;   // message-events run; 0: no limit
  uint64_t max_actors = 0;   // actors created by the program (built-ins not counted); 0: no limit
  uint64_t max_memory = 0;   // bytes allocated, and resident set size; 0: no limit (see integer_limit)
  uint64_t max_integer = 0;  // bytes of an integer's magnitude; 0: an eighth of max_memory, or kDefaultIntegerLimit
  uint64_t max_steps = 0;    // calls and tail calls one event (or top-level statement) may make; 0: no limit
  double timeout = 0;        // seconds of wall time from `started`; 0: no limit
  // When the run began: the runtime's creation if left at the epoch; the
  // humus command sets it before reading the script (--timeout holds from there).
  std::chrono::steady_clock::time_point started{};
  // Called (on the monitor thread) when a limit stopped the run but the
  // runtime was not stopped kStuckGrace later: some event does not finish.
  // The humus command reports and exits; a host may do what it can.
  std::function<void(const std::string& message)> on_stuck;

  bool needs_monitor() const { return max_memory != 0 || timeout > 0; }
};

// Interrupted: not a limit but the host's Runtime::interrupt (the playground's Stop).
// OutOfMemory: not a limit either: the system refused memory (ulimit -v) where
// nothing could be undone, or with the program's live data filling it
// (Runtime::out_of_memory).
// DeclaredDown: nor this: the other nodes of the cluster found this one down
// (it was stalled or cut off; runtime/cluster/cluster.hpp), so it stops.
enum class LimitKind : int { None = 0, Events, Actors, Memory, Timeout, Interrupted, OutOfMemory, DeclaredDown };

inline constexpr std::chrono::milliseconds kMonitorPeriod{10};
inline constexpr std::chrono::milliseconds kStuckGrace{500};

// "--max-events 1000 reached", naming the option as the humus command spells it.
std::string limit_message(LimitKind kind, const Limits& limits);

// A byte count: digits with an optional suffix K, M, G or T (powers of 1024,
// an optional trailing "B" or "iB" allowed): "4096", "512M", "2G".
std::optional<uint64_t> parse_byte_size(std::string_view text);
// The shortest exact spelling of a byte count in those units ("512M").
std::string format_byte_size(uint64_t bytes);

// The process's resident set size in bytes (0 if unknown).
uint64_t resident_bytes();

// The largest integer arithmetic may produce, in bytes of magnitude:
// Limits::max_integer when set, else an eighth of --max-memory when that is
// set (the operands, GMP's scratch space and the garbage of the computation
// need room too), else kDefaultIntegerLimit. A property of each runtime:
// the runtime points the thread at its own as each event or top-level
// statement starts (use_integer_limit), so runtimes with different limits
// work side by side in one process.
inline constexpr uint64_t kDefaultIntegerLimit = uint64_t(1) << 27;  // 128M: ~320 million decimal digits
struct IntegerLimit {
  uint64_t bytes = kDefaultIntegerLimit;
  uint64_t max_memory = 0;  // the --max-memory it came from (for the message); 0: none
  static IntegerLimit of(const Limits& limits);
};
namespace detail {
extern thread_local IntegerLimit tl_integer_limit;  // a copy: nothing dangles when a runtime goes
}
inline void use_integer_limit(const IntegerLimit& limit) { detail::tl_integer_limit = limit; }
inline uint64_t integer_limit() { return detail::tl_integer_limit.bytes; }
// Fails the event: "integer too large (...)". `bits`: the result's size.
[[noreturn]] void integer_too_large(uint64_t bits);
inline void check_integer_bits(uint64_t bits) {
  if (bits / 8 > integer_limit()) [[unlikely]]
    integer_too_large(bits);
}

// The thread that watches memory and time (only when one of those limits is
// set). `trip` stops the run (idempotent); `tripped` says whether something
// (the monitor or a worker) already did; `progress` is a count that grows as
// events end or queued messages are dropped, kIdle when nothing runs.
class LimitMonitor {
 public:
  static constexpr uint64_t kIdle = UINT64_MAX;
  LimitMonitor(const Limits& limits, std::function<void(LimitKind)> trip, std::function<LimitKind()> tripped,
               std::function<uint64_t()> progress);
  ~LimitMonitor() { stop(); }
  LimitMonitor(const LimitMonitor&) = delete;
  LimitMonitor& operator=(const LimitMonitor&) = delete;
  void stop();  // joins; no callback runs after it returns

 private:
  void thread_main();
  void watch();  // thread_main's loop

  const Limits& limits_;
  std::function<void(LimitKind)> trip_;
  std::function<LimitKind()> tripped_;
  std::function<uint64_t()> progress_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace humus::rt
