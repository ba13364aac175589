#include "interpreter/lsp/transport.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <optional>

namespace humus::lsp {

namespace {

bool iequals_prefix(std::string_view line, std::string_view name) {
  if (line.size() < name.size()) return false;
  for (size_t i = 0; i < name.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(line[i])) != std::tolower(static_cast<unsigned char>(name[i])))
      return false;
  return true;
}

}  // namespace

bool Transport::fill() {
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(in_, chunk, sizeof chunk);
    if (n > 0) {
      buf_.append(chunk, size_t(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
}

bool Transport::pending() {
  if (!buf_.empty()) return true;
  pollfd p{in_, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0;
}

bool Transport::wait(int other_fd) {
  if (!buf_.empty()) return true;
  pollfd p[2] = {{in_, POLLIN, 0}, {other_fd, POLLIN, 0}};
  while (::poll(p, 2, -1) < 0)
    if (errno != EINTR) return true;  // read() then reports the failure
  return p[0].revents != 0 || p[1].revents == 0;
}

Transport::Read Transport::read(std::string& body, std::string& error) {
  for (;;) {
    // The rest of a refused message.
    while (skip_ > 0) {
      if (buf_.empty() && !fill()) return Read::End;
      size_t n = std::min(skip_, buf_.size());
      buf_.erase(0, n);
      skip_ -= n;
    }
    size_t end = buf_.find("\r\n\r\n");
    if (end == std::string::npos) {
      if (buf_.size() > 65536) {  // no header block ends: not LSP
        buf_.clear();
        error = "a header block longer than 64 KiB";
        return Read::BadHeader;
      }
      if (!fill()) return Read::End;
      continue;
    }
    std::string_view headers(buf_.data(), end);
    std::optional<size_t> length;
    size_t start = 0;
    while (start <= headers.size()) {
      size_t eol = headers.find("\r\n", start);
      if (eol == std::string_view::npos) eol = headers.size();
      std::string_view line = headers.substr(start, eol - start);
      if (iequals_prefix(line, "content-length:")) {
        std::string_view v = line.substr(15);
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
        size_t n = 0;
        auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (ec == std::errc() && p == v.data() + v.size() && !v.empty()) length = n;
      }
      start = eol + 2;
    }
    buf_.erase(0, end + 4);
    if (!length) {
      error = "a message without a valid Content-Length header";
      return Read::BadHeader;
    }
    if (*length > max_message_) {
      skip_ = *length;
      error = "a message of " + std::to_string(*length) + " bytes (the limit is " + std::to_string(max_message_) + ")";
      return Read::BadHeader;
    }
    while (buf_.size() < *length)
      if (!fill()) return Read::End;
    body = buf_.substr(0, *length);
    buf_.erase(0, *length);
    return Read::Message;
  }
}

bool Transport::write(const std::string& body) {
  std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  size_t done = 0;
  while (done < frame.size()) {
    ssize_t n = ::write(out_, frame.data() + done, frame.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += size_t(n);
  }
  return true;
}

}  // namespace humus::lsp
