#include "interpreter/lsp/checker.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace humus::lsp {

Checker::Checker() {
  if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
}

Checker::~Checker() {
  thread_.reset();  // joins
  ::close(wake_[0]);
  ::close(wake_[1]);
}

void Checker::start(std::string uri, uint64_t revision, CheckInput input) {
  thread_ = std::make_unique<rt::BigStackThread>(
      [this, uri = std::move(uri), revision, input = std::move(input)] {
        Done d{uri, revision, {}};
        try {
          d.diagnostics = check_document(input);
        } catch (const std::exception& e) {  // out of memory, a thread refused: said, not fatal
          d.diagnostics.push_back({{}, 0, Diagnostic::Severity::Error, std::string("the check failed: ") + e.what()});
        }
        {
          std::lock_guard lock(mutex_);
          done_ = std::move(d);
        }
        const char byte = 1;
        [[maybe_unused]] ssize_t n = ::write(wake_[1], &byte, 1);
      },
      rt::thread_stack_size(1));
}

std::optional<Checker::Done> Checker::take() {
  {
    std::lock_guard lock(mutex_);
    if (!done_) return std::nullopt;
  }
  thread_.reset();  // it has finished: joins at once
  char buf[16];
  while (::read(wake_[0], buf, sizeof buf) > 0) {
  }
  std::lock_guard lock(mutex_);
  std::optional<Done> d = std::move(done_);
  done_.reset();
  return d;
}

}  // namespace humus::lsp
