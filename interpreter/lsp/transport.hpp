// JSON-RPC's base protocol as LSP frames it: each message is a header block
// ("Content-Length: N", optionally "Content-Type: ...", each line ending in
// \r\n, then an empty line) and N bytes of JSON.
#pragma once

#include <string>

namespace humus::lsp {

class Transport {
 public:
  // A message bigger than `max_message` is refused (its bytes are skipped).
  static constexpr size_t kMaxMessage = size_t(64) << 20;
  Transport(int in_fd, int out_fd, size_t max_message = kMaxMessage)
      : in_(in_fd), out_(out_fd), max_message_(max_message) {}

  enum class Read {
    Message,    // `body` holds the next message
    BadHeader,  // a header block without a usable Content-Length: skipped, `error` says why
    End,        // the input ended (or failed)
  };
  Read read(std::string& body, std::string& error);
  // More input is already waiting: buffered, or readable without blocking.
  bool pending();
  // Waits until input is waiting (true) or `other_fd` is readable (false).
  bool wait(int other_fd);
  // False when the output is gone (the client closed it).
  bool write(const std::string& body);

 private:
  bool fill();  // reads what is there (blocking); false at the end
  int in_, out_;
  size_t max_message_;
  std::string buf_;
  size_t skip_ = 0;  // bytes of a refused message still to drop
};

}  // namespace humus::lsp
