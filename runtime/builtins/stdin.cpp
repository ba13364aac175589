#include "runtime/builtins/stdin.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/builtins/devices.hpp"
#include "runtime/context.hpp"
#include "runtime/runtime.hpp"
#include "runtime/str.hpp"

namespace humus::rt {

StdinReader::StdinReader(Runtime& rt, int fd) : rt_(rt), fd_(fd) {
  if (::pipe2(wake_, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  thread_ = std::thread([this] { thread_main(); });
}

void StdinReader::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  wanted_.notify_all();
  const char byte = 0;
  while (::write(wake_[1], &byte, 1) < 0 && errno == EINTR) {
  }
  if (thread_.joinable()) thread_.join();
  ::close(wake_[0]);
  ::close(wake_[1]);
  // Requests still waiting are dropped with the run, as queued messages are.
  for (size_t i = 0; i < waiting_.size(); ++i) rt_.release_hold();
  waiting_.clear();
}

void StdinReader::request(Actor* cust, Context& cx) {
  static const Value eof = sym("eof");
  std::unique_lock lock(mutex_);
  if (waiting_.empty() && !lines_.empty()) {
    Value line = take_line();
    // The thread reads on when half the read-ahead is gone, not at every
    // line: a wake-up per line would cost a system call per request.
    const bool wake = ready_bytes_ < kReadAhead / 2 && !eof_ && !reading_;
    lock.unlock();
    if (wake) wanted_.notify_one();
    cx.fx.send(cust, std::move(line));
    return;
  }
  if (waiting_.empty() && eof_) {
    lock.unlock();
    cx.fx.send(cust, eof);
    return;
  }
  waiting_.push_back(Value::share(cust));
  rt_.hold();  // the program waits for input
  lock.unlock();
  wanted_.notify_one();
}

Value StdinReader::take_line() {
  Line l = std::move(lines_.front());
  lines_.pop_front();
  ready_bytes_ -= l.bytes;
  return std::move(l.value);
}

void StdinReader::push_line(std::string_view bytes) {
  ++line_number_;
  ready_bytes_ += bytes.size() + 1;
  if (std::optional<Value> s = str_from_utf8(bytes)) {
    lines_.push_back({std::move(*s), bytes.size() + 1});
    return;
  }
  static const Value error = sym("error");
  std::optional<Value> why =
      str_from_utf8("line " + std::to_string(line_number_) + " of standard input is not UTF-8 text");
  lines_.push_back({make_pair(error, std::move(*why)), bytes.size() + 1});
}

void StdinReader::cut_lines(bool at_end) {
  size_t start = 0;
  for (;;) {
    const size_t nl = partial_.find('\n', start);
    if (nl == std::string::npos) break;
    push_line(std::string_view(partial_).substr(start, nl - start));
    start = nl + 1;
  }
  partial_.erase(0, start);
  if (at_end && !partial_.empty()) {  // a last line without its newline
    push_line(partial_);
    partial_.clear();
  }
}

void StdinReader::serve_waiting(std::unique_lock<std::mutex>& lock) {
  static const Value eof = sym("eof");
  while (!waiting_.empty() && (!lines_.empty() || eof_)) {
    Value cust = std::move(waiting_.front());
    waiting_.pop_front();
    Value answer = lines_.empty() ? eof : take_line();
    // Sent in the order taken: the lock is held, so no other answer can pass this one.
    rt_.send(cust, std::move(answer));
    rt_.release_hold();
  }
  (void)lock;
}

void StdinReader::thread_main() {
  std::string chunk(kChunk, '\0');
  std::unique_lock lock(mutex_);
  for (;;) {
    reading_ = false;
    wanted_.wait(lock, [&] { return stopping_ || (!eof_ && (!waiting_.empty() || ready_bytes_ < kReadAhead)); });
    if (stopping_) return;
    reading_ = true;
    lock.unlock();
    pollfd fds[2] = {{fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    const int ready = ::poll(fds, 2, -1);
    ssize_t n = 0;
    int error = 0;
    if (ready > 0 && (fds[1].revents & POLLIN)) {
      lock.lock();
      if (stopping_) return;
      continue;
    }
    if (ready < 0) {
      if (errno == EINTR) {
        lock.lock();
        continue;
      }
      error = errno;
    } else {
      n = ::read(fd_, chunk.data(), chunk.size());
      if (n < 0) error = (errno == EINTR || errno == EAGAIN) ? 0 : errno;
      if (n < 0 && error == 0) {
        lock.lock();
        continue;
      }
    }
    lock.lock();
    if (n > 0) {
      partial_.append(chunk.data(), size_t(n));
      cut_lines(false);
    } else {
      if (error) {
        static const Value err = sym("error");
        std::optional<Value> why = str_from_utf8(std::string("cannot read standard input: ") + std::strerror(error));
        cut_lines(true);
        lines_.push_back({make_pair(err, std::move(*why)), 0});
      } else {
        cut_lines(true);
      }
      eof_ = true;
    }
    serve_waiting(lock);
  }
}

}  // namespace humus::rt
