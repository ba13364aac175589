// Standard input for the `stdin` actor: (cust, #read_line) -> the next line
// as a string without its "\n", or #eof once there are no more.
//
// A thread of its own reads the input ahead in chunks and cuts it into
// lines, up to kReadAhead bytes, so most requests are answered in the stdin
// actor's own event, as a plain SEND. A request that finds no line ready
// waits in a queue, holding the program alive, until the thread sends it
// one. Lines go out in the order the stdin actor took the requests, also
// when many actors ask at once. The thread starts with the first request
// (a program that never reads touches no input) and sleeps in poll(), so
// the runtime can stop it at any time.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/value.hpp"

namespace humus::rt {

class Runtime;
struct Actor;
struct Context;

class StdinReader {
 public:
  static constexpr size_t kReadAhead = size_t(1) << 20;
  static constexpr size_t kChunk = size_t(64) << 10;

  StdinReader(Runtime& rt, int fd);
  ~StdinReader() { stop(); }
  StdinReader(const StdinReader&) = delete;
  StdinReader& operator=(const StdinReader&) = delete;

  // A request from `cust`: answered now, in cx's effects, or queued.
  void request(Actor* cust, Context& cx);
  void stop();

 private:
  void thread_main();
  // Cuts the complete lines out of partial_ (all of it at the end of input).
  void cut_lines(bool at_end);
  // Hands ready lines to waiting customers (from the thread, outside any event).
  void serve_waiting(std::unique_lock<std::mutex>& lock);
  void push_line(std::string_view bytes);

  Runtime& rt_;
  const int fd_;
  std::mutex mutex_;
  std::condition_variable wanted_;  // the thread waits here while enough is read ahead
  struct Line {
    Value value;  // a string, or (#error, reason)
    size_t bytes;
  };
  std::deque<Line> lines_;  // read, not yet asked for
  size_t ready_bytes_ = 0;  // their bytes
  // The next ready line, taken out (lines_ not empty).
  Value take_line();
  std::deque<Value> waiting_;  // customers with no line yet, in order
  std::string partial_;        // read, not yet a whole line
  uint64_t line_number_ = 0;
  bool eof_ = false;
  bool reading_ = false;  // the thread is reading (not waiting to be wanted)
  bool stopping_ = false;
  int wake_[2] = {-1, -1};  // a pipe that breaks the thread's poll() for stop()
  std::thread thread_;
};

}  // namespace humus::rt
