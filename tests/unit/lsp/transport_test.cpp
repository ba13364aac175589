// JSON-RPC framing over a pipe: headers, split and joined messages, and
// input that is not LSP.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <string>

#include "interpreter/lsp/transport.hpp"

using humus::lsp::Transport;

namespace {

struct Pipe {
  int fds[2];
  // Room for a whole test's input: nothing reads while it is written.
  Pipe() {
    REQUIRE(::pipe(fds) == 0);
    REQUIRE(::fcntl(fds[1], F_SETPIPE_SZ, 1 << 20) >= (1 << 20));
  }
  ~Pipe() {
    ::close(fds[0]);
    if (fds[1] >= 0) ::close(fds[1]);
  }
  void write(const std::string& s) { REQUIRE(::write(fds[1], s.data(), s.size()) == ssize_t(s.size())); }
  void close_write() {
    ::close(fds[1]);
    fds[1] = -1;
  }
};

}  // namespace

TEST_CASE("messages are read by their Content-Length, whatever the other headers") {
  Pipe in, out;
  Transport t(in.fds[0], out.fds[1], 16);
  in.write(
      "Content-Length: 2\r\n\r\n{}content-length:3\r\nContent-Type: application/vscode-jsonrpc; "
      "charset=utf-8\r\n\r\n[1]");
  std::string body, error;
  CHECK(t.read(body, error) == Transport::Read::Message);
  CHECK(body == "{}");
  CHECK(t.pending());
  CHECK(t.read(body, error) == Transport::Read::Message);
  CHECK(body == "[1]");
  CHECK_FALSE(t.pending());

  // No length, a length that is no number, a message over the limit: each is
  // skipped with a reason, and the next message is read.
  in.write(
      "Content-Type: x\r\n\r\nContent-Length: 2x\r\n\r\nContent-Length: 20\r\n\r\n01234567890123456789"
      "Content-Length: 4\r\n\r\nnull");
  CHECK(t.read(body, error) == Transport::Read::BadHeader);
  CHECK(error == "a message without a valid Content-Length header");
  CHECK(t.read(body, error) == Transport::Read::BadHeader);
  CHECK(t.read(body, error) == Transport::Read::BadHeader);
  CHECK(error == "a message of 20 bytes (the limit is 16)");
  CHECK(t.read(body, error) == Transport::Read::Message);
  CHECK(body == "null");

  // A header block that never ends is not LSP.
  in.write(std::string(70000, 'x'));
  CHECK(t.read(body, error) == Transport::Read::BadHeader);
  CHECK(error == "a header block longer than 64 KiB");

  // A message cut by the end of the input.
  in.write("Content-Length: 10\r\n\r\nabc");
  in.close_write();
  CHECK(t.read(body, error) == Transport::Read::End);
}

TEST_CASE("a message is written with its header") {
  Pipe out;
  Transport t(0, out.fds[1]);
  CHECK(t.write("{\"id\":1}"));
  char buf[64] = {};
  ssize_t n = ::read(out.fds[0], buf, sizeof buf);
  CHECK(std::string(buf, size_t(n)) == "Content-Length: 8\r\n\r\n{\"id\":1}");
}
