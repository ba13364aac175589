// The dispatcher: a fixed pool of worker threads that runs any number of
// actors' message-events (the pattern of Akka's dispatchers, Erlang's
// schedulers and GoAkt's).
//
// Scheduling state. Each actor has one atomic state: Idle, Scheduled or
// Running. A send makes an actor runnable only if it wins Idle -> Scheduled
// (read before CAS, so a busy actor costs senders one load); an actor is in
// at most one queue and run by at most one worker at a time. A worker that
// finishes a turn and finds the mailbox empty goes back to Idle and looks
// once more (Mailbox::pushed_since_empty), which closes the race with a
// sender that saw Running just before.
//
// Queues. Each worker has a local ring (LocalQueue): actors made runnable by
// its own events go there, without locks. A shared global queue takes
// overflow and sends from outside the pool (top level, timers, hosts). An
// idle worker looks in its ring, then the global queue, then steals half of
// a sibling's ring, and only then parks on a condition variable, which
// producers signal only when someone is parked and there is work to share.
// An actor gets at most `budget` messages per turn, then goes to the back of
// the ring.
//
// Guest turns. A message from another process arrives on the cluster's
// receiving thread. When every worker is parked, waking one (a futex call,
// then tens of microseconds before it runs) costs more than a short event,
// and a round trip pays it at both ends; so that thread runs the target's
// turn itself, as a "guest" worker with a context of its own (one guest at a
// time; it counts as running for run_paused). The runner hands back undone,
// to a worker, any event that would not suit that thread: one that runs
// long (the thread must go on receiving), fails, or recurses deeper than its
// stack allows (EventRunner::run_turn).
//
// Quiescence. There is no counter bumped per message (that would bounce one
// cache line between all cores on every send). The system is idle exactly
// when every worker is parked, the global queue is empty and no outside work
// (a pending timer, a send from another thread) is in progress: a parked
// worker's ring is empty, and a queued message always has its actor in some
// queue or running. The last worker to park, and the last outside job to
// finish, check that and wake wait_idle(); nobody polls.
//
// Muting (back-pressure, as in Pony's scheduler). On one worker the ready
// queue's order keeps a pipeline in step; on several, a fast producer can
// run ahead of a slow stage and pile up messages, and every event over the
// backlog gets slower (Savina filterbank: 1.3 s on one worker, 10-90 s on
// two). So an actor is *overloaded* until a turn that is not full when its
// turns, three in a row, each used the whole budget and left messages
// behind, or when kQueuedToOverload messages were sent to it since its last
// turn ended (a backlog that grows while it waits for a worker: banks of a
// filterbank that drift apart, each behind by a few messages). A sender to
// an overloaded (or muted) actor, unless it is overloaded itself or sends
// to itself, is *muted* at the end of its turn: it stays Scheduled but
// waits in muted_, under the receiver, instead of a queue, and what is
// sent to it waits in its mailbox. The receiver's first turn that is not
// full puts its muted senders back in the ready queue, and their own muted
// senders with them. Never a deadlock: a muted actor waits on a chain of
// muted actors that ends at an overloaded one, which is never muted, so it
// is queued or running until its backlog is gone (the count of messages
// sent since its turn is cleared and set overloaded by compare-and-swap, so
// a count that makes it overloaded is of messages still to come). Senders
// keep the count in the receiver's Actor::pressure, a line the send writes
// anyway. Only with several workers, and only while the governor lets more
// than one run. Not caught: a producer that loops on its own messages (its
// turns are full, so it counts as overloaded and is never muted).
//
// Benched workers. A second worker can make a program slower (see
// worker_governor.hpp), so only the first `allowed_` workers run; the rest
// wait on the bench, their rings handed to the global queue. A worker steps
// the governor every kTurnsPerSend turns and before it parks; a benched one
// wakes to step it itself when it is due, so a program whose running workers
// are all in long events gets the bench back within a window or two. In a
// pause (run_paused) it sleeps until the pause ends, and while every worker
// is parked until one wakes: then nothing runs for a step to measure.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/context.hpp"
#include "runtime/local_queue.hpp"
#include "runtime/muted_senders.hpp"
#include "runtime/stack_guard.hpp"
#include "runtime/worker_governor.hpp"

namespace humus::rt {

// What the dispatcher hands actors to (the Runtime): the dispatcher only
// schedules, and the actor runs its own turn.
class EventRunner {
 public:
  virtual ~EventRunner() = default;
  virtual std::unique_ptr<Context> make_context() = 0;
  // One turn of `actor`, which this worker holds (Running): at most
  // `budget` messages of its mailbox, each an event of its own; returns how
  // many it consumed. Messages queued meanwhile for other processes leave
  // before it returns, while the actor is still the worker's (order per
  // sender). While the dispatcher drops what is queued (dropping()), the
  // turn drops its messages and counts them (count_dropped()).
  virtual uint64_t run_turn(Actor& actor, Context& cx, uint64_t budget) = 0;
  // Whether `actor`'s turn may run as a guest turn (deliver_chain): built-in
  // actors, which may block (a JetStream request), may not.
  virtual bool may_run_outside(const Actor& actor) const = 0;
  // When a worker finds nothing to run, and every few turns: what turns
  // queued for other processes leaves (runtime/cluster/send_queue.hpp).
  virtual void send_queued() = 0;
  // Memory ran out in the dispatcher's or the timers' own work: the run stops.
  virtual void out_of_memory() noexcept = 0;
};

struct DispatchStats {
  uint64_t events = 0;           // message-events run
  uint64_t unhandled = 0;        // messages no behavior took
  uint64_t queued = 0;           // messages sent and not yet consumed
  uint64_t holds = 0;            // outside work the runtime waits for (hold(): timers, input, other processes)
  uint64_t guest_events = 0;     // of `events`, those run by guest turns (deliver_chain)
  uint64_t handed_back = 0;      // events a guest turn gave back to the workers, undone
  unsigned workers_allowed = 0;  // workers the governor lets run now (worker_governor.hpp)
  uint64_t worker_changes = 0;   // how many times the governor changed that count
  double probe_ms = 0;           // how long its probes ran another count, in all
  double window_ms = 0;          // the length its measuring window grew to
  uint64_t mutes = 0;            // senders held back for sending to an overloaded actor (see Muting)
  uint64_t bench_wakes = 0;      // times a benched worker woke (to step the governor, or to run)
};

class Dispatcher {
 public:
  // threads = 0: no threads of its own; the host runs events with run_here()
  // (the playground: WebAssembly in a browser has one thread).
  Dispatcher(EventRunner& runner, unsigned threads, unsigned budget, uint64_t seed,
             const GovernorSettings& governor = {});
  ~Dispatcher() { stop(); }
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  // Memory ran out in work done for the dispatcher (a timer firing): the run stops.
  void out_of_memory() noexcept { runner_.out_of_memory(); }
  // Starts the workers (until then messages only queue up).
  void start();
  // Without threads of its own: runs turns on the calling thread until
  // nothing is queued (false) or `deadline` has passed (true: more to do).
  bool run_here(std::chrono::steady_clock::time_point deadline);
  bool has_threads() const { return !inline_; }
  // Stops the workers; queued messages are dropped.
  void stop();
  // Queues `msg` for `target`, which the caller keeps alive during the call.
  // From any thread.
  void enqueue(Actor* target, Value msg);
  // Queues the `count` messages linked from `first` to `last` (a committed
  // event's run of sends), in order, and takes them over.
  void enqueue_chain(Actor* target, Message* first, Message* last, uint64_t count);
  // The same from a thread outside the pool that may run the target's turn
  // itself when every worker is parked (a guest turn, see the top); true if
  // it did. What such turns queued for other processes waits for the
  // caller's EventRunner::send_queued (after a whole batch of arrivals, so
  // that their answers share NATS messages).
  bool deliver_chain(Actor* target, Message* first, Message* last, uint64_t count);
  // Outside work that is not a queued message but keeps the program alive
  // (a pending timer).
  void hold() { external_.fetch_add(1, std::memory_order_seq_cst); }
  void release();
  // Blocks until the system is quiescent.
  void wait_idle();
  // The same, for at most `limit`; true if it became quiescent (embedding hosts).
  bool wait_idle_for(std::chrono::nanoseconds limit);
  // Drops every queued message and waits for running events to finish;
  // returns how many messages were dropped.
  uint64_t drain();
  // From now on every queued message is dropped instead of run (a resource
  // limit stopped the run, see runtime/limits.hpp); wait_idle() then returns soon.
  void drop_queued() { dropping_.store(true, std::memory_order_relaxed); }
  // Whether queued messages are being dropped (a stopped run, drain()), and
  // one more dropped.
  bool dropping() const { return dropping_.load(std::memory_order_relaxed); }
  void count_dropped() { dropped_.fetch_add(1, std::memory_order_relaxed); }
  DispatchStats stats() const;
  // Grows as events start and turns end, dropping or not (the limit
  // monitor's test of an event that does not finish).
  uint64_t progress() const;
  // Every worker parked, nothing queued, no outside work.
  bool idle_now() const;
  unsigned threads() const { return unsigned(workers_.size()); }
  // Runs `job` while no worker runs an event: busy workers finish their
  // turn and wait, parked ones stay parked (the cycle collector). Waits at
  // most `limit` for the busy ones: a long event would stall every other
  // worker meanwhile, so then it gives up (false; nothing ran). Not from a
  // worker of this dispatcher.
  bool run_paused(const std::function<void()>& job, std::chrono::nanoseconds limit);

 private:
  struct Worker {
    Dispatcher* owner = nullptr;
    unsigned index = 0;
    LocalQueue local;
    std::unique_ptr<Context> cx;
    std::minstd_rand rng;                       // picks steal victims
    uint32_t ticks = 0;                         // turns taken, for the global queue's fair share
    uint32_t turns_since_send = 0;              // EventRunner::send_queued
    Actor* running = nullptr;                   // the actor whose turn runs here
    Actor* mute_on = nullptr;                   // under pressure, sent to by `running` this turn (retained; see Muting)
    std::vector<Actor*> unmuted, unmuted_keys;  // unmute_senders' scratch
    // Written only by this worker (plain stores), read by stats().
    std::atomic<uint64_t> sent{0};
    std::atomic<uint64_t> consumed{0};
  };

  void worker_main(Worker& w);
  void work(Worker& w);  // worker_main's loop
  // enqueue_chain and deliver_chain (which may run the turn as a guest).
  bool queue_chain(Actor* target, Message* first, Message* last, uint64_t count, bool guest_may_run);
  bool run_as_guest(Actor* actor);  // true if it took the actor (the turn ran)
  Actor* find_work(Worker& w);
  Actor* steal(Worker& w);
  void run_turn(Worker& w, Actor* actor);
  // Muting: notes a send from w.running to `target` under pressure; at the
  // end of a turn, holds the sender back (true) or lets it be (false); and
  // puts an actor's muted senders back in w's queue.
  void note_pressure(Worker& w, Actor* target);
  bool mute(Actor* sender, Actor* receiver);
  void unmute_senders(Worker& w, Actor* receiver);
  // Full turns in a row that make an actor overloaded: one would mute the
  // 100 closed-loop clients of a busy server (Savina chameneos) half a
  // million times a run for nothing.
  static constexpr unsigned kFullTurnsToOverload = 3;
  // Messages sent to an actor since its last turn ended that make it
  // overloaded at the next send's end of turn. The count stops at
  // kQueuedCap: two senders at once cannot carry it past its four bits
  // (more can, and then lose the count, never the flags below it).
  static constexpr unsigned kQueuedToOverload = 12;
  static constexpr unsigned kQueuedCap = 13;
  static_assert(kQueuedToOverload <= kQueuedCap && kQueuedCap < 15);
  // The receiver's pressure after counting a send to it (Actor::pressure).
  uint8_t count_send(Actor* target);
  // Its pressure at the end of a turn: overloaded, counting full turns, or
  // its muted senders let go; the count of messages sent to it cleared.
  void end_turn_pressure(Worker& w, Actor* actor, bool full);
  // EventRunner::send_queued, when the worker is idle or every kTurnsPerSend turns.
  void send_queued(Worker& w);
  static constexpr uint32_t kTurnsPerSend = 32;
  void make_ready(Actor* actor);  // after winning Idle -> Scheduled
  void push_local(Worker& w, Actor* actor);
  void push_global(Actor* actor);
  Actor* pop_global();
  void wake_one();
  void park(Worker& w);
  // The governor, if its step is due (try-lock: one worker steps it).
  void govern();
  uint64_t events_run() const;
  bool work_waiting() const;  // for the governor: some actor waits in a queue
  bool benched(const Worker& w) const { return w.index >= allowed_.load(std::memory_order_relaxed); }
  void bench(Worker& w);  // waits, its ring given away, until allowed again
  void rest();            // waits at a turn boundary while run_paused runs its job
  void notify_if_idle();
  Worker* current_worker() const;

  EventRunner& runner_;
  const unsigned budget_;
  bool inline_ = false;  // no threads: see run_here
  std::vector<std::unique_ptr<Worker>> workers_;
  std::unique_ptr<Worker> guest_;  // guest turns; none without threads
  std::atomic<bool> guest_busy_{false};
  std::atomic<bool> guests_open_{false};  // start() has run: the program is loaded, the workers counted
  std::vector<BigStackThread> threads_;
  bool started_ = false;

  // Muting: senders held back, by the actor they sent to (which the table
  // holds a reference to); each muted sender is in one list, with the
  // queue's reference it had.
  bool muting_ = false;  // several workers
  std::mutex mute_mutex_;
  MutedSenders muted_;
  std::atomic<uint64_t> mutes_{0};

  // Global queue: an intrusive list through Actor::next_ready.
  mutable std::mutex global_mutex_;
  Actor* global_head_ = nullptr;
  Actor* global_tail_ = nullptr;
  std::atomic<uint64_t> global_size_{0};

  // Parking: a worker waits for a token; producers post one only when
  // someone has announced it is going to sleep.
  std::mutex park_mutex_;
  std::condition_variable park_cv_;
  uint64_t tokens_ = 0;
  bool stopping_ = false;
  std::atomic<int> sleepers_{0};
  // Pausing (run_paused), under park_mutex_: workers parked or resting,
  // out of how many threads run. pause_flag_ mirrors pausing_ for the
  // workers' check between turns, which must not take the lock.
  bool pausing_ = false;
  int resting_ = 0;
  int running_threads_ = 0;
  std::atomic<bool> pause_flag_{false};
  std::condition_variable pause_cv_;
  std::condition_variable bench_cv_;  // benched workers, under park_mutex_
  bool bench_asleep_ = false;         // one waits untimed for a worker to wake (under park_mutex_)
  std::atomic<uint64_t> bench_wakes_{0};

  // The governor (none with one worker or --fixed-threads), stepped under
  // governor_mutex_; allowed_ and the time of its next step are read
  // without the lock.
  GovernorSettings governor_settings_;
  std::unique_ptr<WorkerGovernor> governor_;
  std::mutex governor_mutex_;
  // Read by every send (count_send) and turn: a line apart from the
  // counters that workers write.
  alignas(64) std::atomic<unsigned> allowed_{~0u};
  std::atomic<int64_t> governor_due_{0};  // steady_clock nanoseconds
  std::atomic<uint64_t> worker_changes_{0};
  std::atomic<int64_t> probe_ns_{0}, window_ns_{0};  // the governor's, for stats
  std::atomic<int64_t> paused_ns_{0};                // run_paused's time in all (the governor's clock leaves it out)

  // Quiescence.
  alignas(64) std::atomic<int> active_{0};  // workers not parked
  std::atomic<int64_t> external_{0};        // outside work in progress
  std::atomic<uint64_t> external_sent_{0};
  mutable std::mutex idle_mutex_;
  std::condition_variable idle_cv_;

  std::atomic<bool> halt_{false};  // stop(): leave even with work queued
  std::atomic<bool> dropping_{false};
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace humus::rt
