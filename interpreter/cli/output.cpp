#include "interpreter/cli/output.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace humus::cli {

namespace {

// The errno of the first failed write to each stream (0: none). Workers
// write concurrently, so the first failure is kept with a compare-exchange.
std::atomic<int> g_stdout_error{0};
std::atomic<int> g_stderr_error{0};

void remember(std::atomic<int>& slot) {
  int none = 0;
  slot.compare_exchange_strong(none, errno ? errno : EIO);
}

}  // namespace

void write_stdout(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) remember(g_stdout_error);
}

void flush_stdout() {
  if (std::fflush(stdout) != 0) remember(g_stdout_error);
}

void write_stderr(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stderr) != text.size() || std::fflush(stderr) != 0)
    remember(g_stderr_error);
}

int finish_output(int status) {
  flush_stdout();
  if (std::ferror(stdout)) remember(g_stdout_error);
  if (int e = g_stdout_error.load()) {
    std::fprintf(stderr, "humus: cannot write standard output: %s\n", std::strerror(e));
    if (status == 0) status = 1;
  }
  if (std::fflush(stderr) != 0 || std::ferror(stderr)) remember(g_stderr_error);
  if (g_stderr_error.load() && status == 0) status = 1;
  return status;
}

}  // namespace humus::cli
