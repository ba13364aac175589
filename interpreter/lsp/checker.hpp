// The check of a document (compile and name check, analysis.hpp) on a
// thread of its own, one at a time, so that requests are answered from the
// outline while a big document is still being checked: a 100,000-line
// document's check takes about a second, its outline half that.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "interpreter/lsp/analysis.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::lsp {

class Checker {
 public:
  Checker();
  ~Checker();  // waits for a check under way
  Checker(const Checker&) = delete;
  Checker& operator=(const Checker&) = delete;

  struct Done {
    std::string uri;
    uint64_t revision = 0;  // of the text that was checked
    std::vector<Diagnostic> diagnostics;
  };

  bool busy() const { return thread_ != nullptr; }
  // Starts checking; only when not busy.
  void start(std::string uri, uint64_t revision, CheckInput input);
  // Readable (a byte is written to it) when a check has finished.
  int wake_fd() const { return wake_[0]; }
  // The finished check's result, once; nothing while it is still running.
  std::optional<Done> take();

 private:
  int wake_[2] = {-1, -1};
  std::unique_ptr<rt::BigStackThread> thread_;
  std::mutex mutex_;
  std::optional<Done> done_;  // guarded by mutex_
};

}  // namespace humus::lsp
