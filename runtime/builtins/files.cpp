// files: whole files read and written in the actor's own event.
//   (cust, #read, path)           -> (#ok, string)         or (#error, reason)
//   (cust, #lines, path)          -> (#ok, list of strings) (without their "\n")
//   (cust, #write, path, string)  -> #ok                   or (#error, reason)
//   (cust, #append, path, string) -> #ok                   or (#error, reason)
// Paths are relative to the current folder, or absolute. Text is UTF-8 both
// ways; a file that is not is an error, not a guess. Only regular files are
// read: a named pipe or a device could block the worker for good. The
// strings made are packed (runtime/str.hpp): a file costs about its size.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/builtins/devices.hpp"
#include "runtime/context.hpp"
#include "runtime/lines.hpp"
#include "runtime/runtime.hpp"
#include "runtime/str.hpp"
#include "runtime/text.hpp"

namespace humus::rt {

namespace {

// What went wrong with `path`, as a person reads it.
std::string describe(int error, const std::string& path, const char* doing) {
  switch (error) {
    case ENOENT:
      if (std::string_view(doing) == "write") {  // the file is made: a folder on the way is missing
        const size_t slash = path.rfind('/');
        return "no such folder: " + (slash == std::string::npos ? std::string(".") : path.substr(0, slash));
      }
      return "no such file: " + path;
    case EACCES:
    case EPERM:
      return "permission denied: " + path;
    case EISDIR:
      return "is a directory: " + path;
    case ENOTDIR:
      return "not a directory: a folder in " + path;
    case ENOSPC:
      return "no space left on the device: " + path;
    case EROFS:
      return "read-only file system: " + path;
    case ENAMETOOLONG:
      return "file name too long: " + path;
    default:
      return std::string("cannot ") + doing + " " + path + ": " + std::strerror(error);
  }
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Opens `path` for reading if it is a regular file no larger than a
// string can be; else says why. `size` is its size when opened.
bool open_regular(const std::string& path, Fd& f, size_t& size, std::string& why) {
  // O_NONBLOCK: opening a named pipe must not wait for a writer.
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (f.fd < 0) {
    why = describe(errno, path, "read");
    return false;
  }
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) {
    why = describe(errno, path, "read");
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    why = "is a directory: " + path;
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    why = "not a regular file: " + path + " (only regular files are read)";
    return false;
  }
  if (uint64_t(st.st_size) > kMaxStrLength) {
    why = "too large to read: " + path + " (" + std::to_string(st.st_size) + " bytes; at most 4 GiB)";
    return false;
  }
  size = size_t(st.st_size);
  return true;
}

// Reads the next bytes of `f` into `buf` (at most `room`): how many, 0 at
// the end, -1 on an error (why says which).
ssize_t read_some(const Fd& f, char* buf, size_t room, const std::string& path, std::string& why) {
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, room);
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    why = describe(errno, path, "read");
    return -1;
  }
}

// The bytes of a regular file, or the reason it cannot be read. The buffer
// is sized once, one byte over, so that the end shows without a regrowth
// (a 100 MB file was copied twice more).
bool read_file(const std::string& path, std::string& bytes, std::string& why) {
  Fd f{-1};
  size_t size = 0;
  if (!open_regular(path, f, size, why)) return false;
  bytes.resize(size + 1);
  size_t got = 0;
  for (;;) {  // to the end, also when the file grew since fstat
    if (got == bytes.size()) bytes.resize(bytes.size() + (bytes.size() >> 1));
    const ssize_t n = read_some(f, bytes.data() + got, bytes.size() - got, path, why);
    if (n < 0) return false;
    if (n == 0) break;
    got += size_t(n);
    if (got > kMaxStrLength) {
      why = "too large to read: " + path + " (at most 4 GiB)";
      return false;
    }
  }
  bytes.resize(got);
  return true;
}

// The lines of a regular file (each without its "\n"), as a list of
// strings, read a chunk at a time and packed (runtime/lines.hpp): the
// file's bytes are never all in memory besides the lines made of them.
bool read_lines(const std::string& path, Value& out, std::string& why) {
  Fd f{-1};
  size_t size = 0;
  if (!open_regular(path, f, size, why)) return false;
  LinesBuilder lines;
  std::string carry;  // a line begun in an earlier chunk
  auto line = [&](std::string_view text) {
    if (lines.add(text)) return true;
    why = "not UTF-8 text: " + path + " (line " + std::to_string(lines.lines() + 1) + ")";
    return false;
  };
  constexpr size_t kChunk = size_t(1) << 20;
  std::unique_ptr<char[]> buf(new char[kChunk]);
  uint64_t total = 0;
  for (;;) {
    const ssize_t n = read_some(f, buf.get(), kChunk, path, why);
    if (n < 0) return false;
    if (n == 0) break;
    if ((total += uint64_t(n)) > kMaxStrLength) {
      why = "too large to read: " + path + " (at most 4 GiB)";
      return false;
    }
    std::string_view rest(buf.get(), size_t(n));
    // Most files are ASCII: one check of the chunk spares a check a line.
    const bool ascii = is_ascii(rest);
    for (size_t nl; (nl = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(nl + 1)) {
      if (carry.empty()) {
        if (ascii)
          lines.add_ascii(rest.substr(0, nl));
        else if (!line(rest.substr(0, nl)))
          return false;
      } else {
        carry.append(rest.substr(0, nl));
        if (!line(carry)) return false;
        carry.clear();
      }
    }
    carry.append(rest);
  }
  if (!carry.empty() && !line(carry)) return false;
  out = lines.finish();
  return true;
}

bool write_file(const std::string& path, std::string_view text, bool append, std::string& why) {
  Fd f{::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | (append ? O_APPEND : O_TRUNC), 0666)};
  if (f.fd < 0) {
    why = describe(errno, path, "write");
    return false;
  }
  while (!text.empty()) {
    const ssize_t n = ::write(f.fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      why = describe(errno, path, "write");
      return false;
    }
    text.remove_prefix(size_t(n));
  }
  if (::close(f.fd) != 0) {  // a full disk may show only here
    f.fd = -1;
    why = describe(errno, path, "write");
    return false;
  }
  f.fd = -1;
  return true;
}

// The string of `bytes`, or the reason it is not one.
bool text_of(const std::string& bytes, const std::string& path, Value& out, std::string& why) {
  std::optional<Value> s = str_from_utf8(bytes);
  if (!s) {
    why = "not UTF-8 text: " + path;
    return false;
  }
  out = std::move(*s);
  return true;
}

}  // namespace

void files_behavior(Actor&, const Value& msg, Context& cx) {
  static const Value read = sym("read"), lines = sym("lines"), write = sym("write"), append = sym("append"),
                     ok = sym("ok");
  // (cust, op, path) or (cust, op, path, string)
  if (!msg.is_pair() || !head(msg).is_actor() || !tail(msg).is_pair()) return cx.rt.unhandled(cx, msg);
  Actor* cust = head(msg).as<Actor>();
  const Value& op = head(tail(msg));
  const Value& args = tail(tail(msg));
  const bool reading = op.same(read) || op.same(lines);
  const bool writing = op.same(write) || op.same(append);
  if ((!reading && !writing) || (writing && !args.is_pair())) return cx.rt.unhandled(cx, msg);
  Devices& d = cx.rt.devices();
  if (std::string why = d.refusal("file access", d.files_allowed()); !why.empty()) return send_error(cx, cust, why);
  const Value& path_value = writing ? head(args) : args;
  std::optional<std::string> path = string_text(path_value);
  if (!path || path->empty())
    return send_error(cx, cust, "a path must be a non-empty string, not " + cx.rt.shown(path_value));
  if (path->find('\0') != std::string::npos) return send_error(cx, cust, "a path cannot hold the character 0");
  std::string why;
  if (reading) {
    Value result;
    if (op.same(read)) {
      std::string bytes;
      if (!read_file(*path, bytes, why) || !text_of(bytes, *path, result, why)) return send_error(cx, cust, why);
    } else if (!read_lines(*path, result, why)) {
      return send_error(cx, cust, why);
    }
    cx.fx.send(cust, make_pair(ok, std::move(result)));
    return;
  }
  std::optional<std::string> text = string_text(tail(args));
  if (!text) return send_error(cx, cust, "what is written must be a string, not " + cx.rt.shown(tail(args)));
  if (!write_file(*path, *text, op.same(append), why)) return send_error(cx, cust, why);
  cx.fx.send(cust, ok);
}

}  // namespace humus::rt
