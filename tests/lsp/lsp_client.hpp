// A language client for tests: starts `humus --lsp` (the path in $HUMUS)
// with pipes for its standard input and output, and speaks JSON-RPC to it
// as an editor would. Every wait has a time limit, so a server that hangs
// fails the test instead of stopping it.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace lsp_test {

using json = nlohmann::json;

class Client {
 public:
  explicit Client(std::vector<std::string> extra_args = {}) {
    const char* humus = std::getenv("HUMUS");
    if (!humus) throw std::runtime_error("set HUMUS to the humus command");
    int to_server[2], from_server[2];
    if (::pipe(to_server) != 0 || ::pipe(from_server) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_server[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_server[1], 1);
    posix_spawn_file_actions_addclose(&actions, to_server[1]);
    posix_spawn_file_actions_addclose(&actions, from_server[0]);
    std::vector<std::string> args{humus, "--lsp"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, humus, &actions, nullptr, argv.data(), environ) != 0)
      throw std::runtime_error("cannot start humus");
    posix_spawn_file_actions_destroy(&actions);
    ::close(to_server[0]);
    ::close(from_server[1]);
    in_ = to_server[1];
    out_ = from_server[0];
    ::signal(SIGPIPE, SIG_IGN);
  }
  ~Client() {
    if (in_ >= 0) ::close(in_);
    if (out_ >= 0) ::close(out_);
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Raw bytes, for framing tests.
  void write_raw(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      ssize_t n = ::write(in_, bytes.data() + done, bytes.size() - done);
      if (n <= 0) throw std::runtime_error("the server closed its input");
      done += size_t(n);
    }
  }
  static std::string frame(const std::string& body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  void send(const json& msg) { write_raw(frame(msg.dump())); }
  void notify(const std::string& method, const json& params) {
    send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
  }
  int send_request(const std::string& method, const json& params) {
    int id = next_id_++;
    send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
    return id;
  }
  // The whole response (result or error) to a request.
  json request(const std::string& method, const json& params = json::object()) {
    return response(send_request(method, params));
  }
  json response(const json& id) {
    for (;;) {
      json m = receive();
      if (m.contains("id") && !m.contains("method") && m["id"] == id) return m;
      pending_.push_back(m);
    }
  }
  // The next notification of `method` (earlier ones of other methods are kept).
  json notification(const std::string& method) {
    for (auto it = pending_.begin(); it != pending_.end(); ++it)
      if (it->value("method", "") == method) {
        json m = *it;
        pending_.erase(it);
        return m;
      }
    for (;;) {
      json m = receive();
      if (m.value("method", "") == method) return m;
      pending_.push_back(m);
    }
  }
  // The diagnostics published for `uri`, skipping those of other documents.
  json diagnostics(const std::string& uri) {
    for (;;) {
      json n = notification("textDocument/publishDiagnostics");
      if (n["params"]["uri"] == uri) return n["params"];
    }
  }

  // The next message, whatever it is.
  json receive() {
    std::string headers;
    while (headers.size() < 4 || headers.compare(headers.size() - 4, 4, "\r\n\r\n") != 0) headers += read_bytes(1);
    auto at = headers.find("Content-Length: ");
    if (at == std::string::npos) throw std::runtime_error("no Content-Length in: " + headers);
    size_t length = std::stoul(headers.substr(at + 16));
    return json::parse(read_bytes(length));
  }

  // How long a read waits for the server before the test fails.
  int timeout_ms = 20000;

  // Whether the server sends nothing more within `ms`.
  bool quiet_for(int ms) {
    pollfd p{out_, POLLIN, 0};
    return ::poll(&p, 1, ms) == 0;
  }

  void close_input() {
    ::close(in_);
    in_ = -1;
  }
  // The exit status, waiting at most `seconds`; -1 if it did not exit.
  int wait_exit(int seconds = 10) {
    for (int i = 0; i < seconds * 100; ++i) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      ::usleep(10000);
    }
    return -1;
  }

 private:
  std::string read_bytes(size_t n) {
    std::string out;
    while (out.size() < n) {
      pollfd p{out_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0)
        throw std::runtime_error("the server sent nothing for " + std::to_string(timeout_ms / 1000) + " s");
      char buf[65536];
      ssize_t got = ::read(out_, buf, std::min(sizeof buf, n - out.size()));
      if (got <= 0) throw std::runtime_error("the server closed its output");
      out.append(buf, size_t(got));
    }
    return out;
  }

  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  bool exited_ = false;
  int next_id_ = 1;
  std::deque<json> pending_;
};

inline json position(int line, int character) { return {{"line", line}, {"character", character}}; }
inline json range(int l1, int c1, int l2, int c2) { return {{"start", position(l1, c1)}, {"end", position(l2, c2)}}; }

}  // namespace lsp_test
