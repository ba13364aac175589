#include "interpreter/read_source.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace humus::interp {

namespace {

using Clock = std::chrono::steady_clock;

ReadResult failed(const std::string& what, const std::string& name, const std::string& why,
                  rt::LimitKind limit = rt::LimitKind::None) {
  ReadResult r;
  r.error = what + " '" + name + "': " + why;
  r.limit = limit;
  return r;
}

// Waits until `fd` has something to read or the deadline passes (false).
bool wait_readable(int fd, Clock::time_point deadline) {
  for (;;) {
    int ms = -1;
    if (deadline != Clock::time_point::max()) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return false;
      ms = left > 60'000 ? 60'000 : int(left);
    }
    pollfd p{fd, POLLIN, 0};
    const int n = ::poll(&p, 1, ms);
    if (n > 0) return true;  // data, the end, or an error that read() will tell
    if (n < 0 && errno != EINTR) return true;
  }
}

// Reads to the end. `pipe`: wait with poll (a pipe may stay silent past the deadline).
ReadResult read_all(int fd, const std::string& name, const ReadLimits& limits, bool pipe, size_t size_hint) {
  std::string text;
  if (limits.max_bytes && size_hint > limits.max_bytes)  // refused before reading a byte
    return failed("cannot read", name, "larger than --max-memory", rt::LimitKind::Memory);
  text.reserve(size_hint);
  char buf[1 << 16];
  for (;;) {
    if (Clock::now() >= limits.deadline || (pipe && !wait_readable(fd, limits.deadline)))
      return failed("cannot read", name, "--timeout reached while reading", rt::LimitKind::Timeout);
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return failed("cannot read", name, std::strerror(errno));
    }
    if (limits.max_bytes && text.size() + size_t(n) > limits.max_bytes)
      return failed("cannot read", name, "larger than --max-memory", rt::LimitKind::Memory);
    text.append(buf, size_t(n));
  }
  ReadResult r;
  r.source = std::make_shared<ast::Source>(ast::Source{name, std::move(text)});
  return r;
}

}  // namespace

ReadResult read_source(const std::string& path, const ReadLimits& limits) {
  // POSIX calls rather than an ifstream, for the OS's reason when it fails:
  // an ifstream opens a directory and reads nothing, which ran as an empty
  // script (status 0, nothing said). O_NONBLOCK: opening a FIFO waits for a
  // writer otherwise, before fstat can say what it is.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return failed("cannot open", path, std::strerror(errno));
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return failed("cannot read", path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return failed("cannot read", path, std::strerror(EISDIR));
  const bool pipe = S_ISFIFO(st.st_mode);
  if (!S_ISREG(st.st_mode) && !(pipe && limits.allow_pipe))
    return failed("cannot read", path, pipe ? "a named pipe, not a regular file" : "not a regular file");
  if (pipe) {
    // A pipe given as the script (humus <(generate)) is read like standard
    // input: blocking reads, waited on with poll.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  }
  return read_all(fd, path, limits, pipe, S_ISREG(st.st_mode) ? size_t(st.st_size) : 0);
}

ReadResult read_source_fd(int fd, const std::string& name, const ReadLimits& limits) {
  struct stat st {};
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  // Standard input is whatever the shell gave (a file, a pipe, a device that
  // never ends): anything but a regular file is waited on with poll.
  return read_all(fd, name, limits, !regular, regular ? size_t(st.st_size) : 0);
}

}  // namespace humus::interp
