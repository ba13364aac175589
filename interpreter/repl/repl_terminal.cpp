#include "interpreter/repl/repl_terminal.hpp"

#include <fcntl.h>
#include <histedit.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

// libedit never frees the names EL_ADDFN copies (wcsdup): not ours to fix.
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __lsan_default_suppressions() { return "leak:wcsdup\n"; }
#endif

namespace humus::repl {

namespace {

// Signal state: the handlers only touch these and write(2) a byte.
int g_signal_pipe[2] = {-1, -1};
std::atomic<int> g_sigint{0};  // Ctrl-C presses not yet handled
std::atomic<bool> g_sigwinch{false};
std::atomic<bool> g_busy{false};
std::atomic<int> g_busy_sigint{0};  // Ctrl-C presses while evaluating
std::atomic<void (*)(void*)> g_busy_hook{nullptr};  // what Ctrl-C does while evaluating
std::atomic<void*> g_busy_arg{nullptr};

void on_sigint(int) {
  int saved = errno;
  if (g_busy.load() && g_busy_sigint.fetch_add(1) + 1 >= 3) {
    const char msg[] = "\nhumus: interrupted\n";
    ssize_t r = ::write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)r;
    _exit(130);
  }
  // Evaluating: the hook interrupts it, and this press is spent.
  if (void (*hook)(void*) = g_busy.load() ? g_busy_hook.load() : nullptr) {
    hook(g_busy_arg.load());
    errno = saved;
    return;
  }
  g_sigint.fetch_add(1);
  ssize_t r = ::write(g_signal_pipe[1], "i", 1);
  (void)r;
  errno = saved;
}

void on_sigwinch(int) {
  int saved = errno;
  g_sigwinch.store(true);
  ssize_t r = ::write(g_signal_pipe[1], "w", 1);
  (void)r;
  errno = saved;
}

void drain_fd(int fd) {
  char buf[256];
  while (::read(fd, buf, sizeof buf) > 0) {
  }
}

void make_pipe(int fds[2]) {
  if (::pipe(fds) != 0) {
    fds[0] = fds[1] = -1;
    return;
  }
  for (int i = 0; i < 2; ++i) {
    ::fcntl(fds[i], F_SETFL, ::fcntl(fds[i], F_GETFL) | O_NONBLOCK);
    ::fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  }
}

void write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, 100);
        continue;
      }
      return;
    }
    s.remove_prefix(size_t(n));
  }
}

// Output written while the terminal is in editing mode: bare newlines may not
// return the carriage there, so every "\n" becomes "\r\n".
std::string crlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 16);
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

// Display width of UTF-8 text, one column per code point (good enough here).
size_t width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace

Terminal::Terminal(std::string history_file) : history_file_(std::move(history_file)) {
  make_pipe(wake_);
  if (g_signal_pipe[0] < 0) make_pipe(g_signal_pipe);
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sa.sa_handler = on_sigwinch;
  sigaction(SIGWINCH, &sa, nullptr);

  hist_ = history_init();
  HistEvent ev;
  ::history(hist_, &ev, H_SETSIZE, 1000);
  ::history(hist_, &ev, H_SETUNIQUE, 1);
  if (!history_file_.empty()) ::history(hist_, &ev, H_LOAD, history_file_.c_str());

  el_ = el_init("humus", stdin, stdout, stderr);
  el_set(el_, EL_CLIENTDATA, this);
  el_set(el_, EL_EDITOR, "emacs");
  el_set(el_, EL_PROMPT, &Terminal::prompt_fn);
  el_set(el_, EL_HIST, ::history, hist_);
  el_set(el_, EL_GETCFN, &Terminal::getc_fn);
  el_set(el_, EL_ADDFN, "humus-complete", "complete a keyword, global or module", &Terminal::complete_fn);
  el_set(el_, EL_BIND, "^I", "humus-complete", nullptr);
  el_source(el_, nullptr);  // ~/.editrc
}

Terminal::~Terminal() {
  el_end(el_);
  history_end(hist_);
  signal(SIGINT, SIG_DFL);
  signal(SIGWINCH, SIG_DFL);
  for (int fd : wake_)
    if (fd >= 0) ::close(fd);
}

void Terminal::set_busy(bool busy, void (*on_interrupt)(void*), void* arg) {
  g_busy_sigint.store(0);
  g_busy_arg.store(busy ? arg : nullptr);
  g_busy_hook.store(busy ? on_interrupt : nullptr);
  g_busy.store(busy);
}

Terminal::Read Terminal::read_line(const std::string& prompt, std::string& line) {
  line.clear();
  // A Ctrl-C pressed while the REPL was busy counts for this read.
  if (g_sigint.exchange(0) > 0) {
    drain_fd(g_signal_pipe[0]);
    return Read::Interrupted;
  }
  prompt_ = prompt;
  interrupted_ = false;
  {
    std::lock_guard lock(mutex_);
    editing_ = true;
  }
  std::fflush(stdout);
  int count = 0;
  const char* text = el_gets(el_, &count);
  {
    std::lock_guard lock(mutex_);
    editing_ = false;
  }
  if (interrupted_) {
    const LineInfo* li = el_line(el_);
    line.assign(li->buffer, li->lastchar);
    show_pending();
    return Read::Interrupted;
  }
  if (!text || count <= 0) {
    write_all(STDOUT_FILENO, "\n");
    show_pending();
    return Read::Eof;
  }
  line.assign(text, size_t(count));
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  // Output queued after the last redraw is shown now, below the line.
  show_pending();
  return Read::Line;
}

void Terminal::add_history(const std::string& line) {
  HistEvent ev;
  ::history(hist_, &ev, H_ENTER, line.c_str());
  if (!history_file_.empty()) ::history(hist_, &ev, H_SAVE, history_file_.c_str());
}

void Terminal::write(std::string_view text, bool to_err) {
  std::lock_guard lock(mutex_);
  if (editing_) {
    bool wake = pending_.empty();
    pending_ += text;
    if (wake) {
      ssize_t r = ::write(wake_[1], "o", 1);
      (void)r;
    }
    return;
  }
  std::fflush(stdout);
  write_all(to_err ? STDERR_FILENO : STDOUT_FILENO, text);
}

int Terminal::columns() const {
  winsize ws{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

size_t Terminal::cursor_offset(bool at_end) const {
  const LineInfo* li = el_line(el_);
  const char* end = at_end ? li->lastchar : li->cursor;
  return width(prompt_) + width(std::string_view(li->buffer, size_t(end - li->buffer)));
}

void Terminal::erase_input() {
  size_t row = cursor_offset(false) / size_t(columns());
  std::string s;
  if (row > 0) s += "\x1b[" + std::to_string(row) + "A";
  s += "\r\x1b[J";
  write_all(STDOUT_FILENO, s);
}

void Terminal::move_to_input_end() {
  size_t cols = size_t(columns());
  size_t here = cursor_offset(false), end = cursor_offset(true);
  std::string s;
  if (end / cols > here / cols) s += "\x1b[" + std::to_string(end / cols - here / cols) + "B";
  s += "\r";
  if (end % cols) s += "\x1b[" + std::to_string(end % cols) + "C";
  write_all(STDOUT_FILENO, s);
}

void Terminal::show_pending() {
  std::string text;
  {
    std::lock_guard lock(mutex_);
    text.swap(pending_);
  }
  if (text.empty()) return;
  if (text.back() != '\n') text += '\n';
  bool editing;
  {
    std::lock_guard lock(mutex_);
    editing = editing_;
  }
  if (!editing) {
    write_all(STDOUT_FILENO, text);
    return;
  }
  erase_input();
  write_all(STDOUT_FILENO, crlf(text));
  el_set(el_, EL_REFRESH);
}

int Terminal::getc_fn(editline* el, wchar_t* out) {
  Terminal* t = nullptr;
  el_get(el, EL_CLIENTDATA, &t);
  for (;;) {
    pollfd fds[3] = {{STDIN_FILENO, POLLIN, 0}, {t->wake_[0], POLLIN, 0}, {g_signal_pipe[0], POLLIN, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (fds[2].revents) {
      drain_fd(g_signal_pipe[0]);
      if (g_sigwinch.exchange(false)) el_resize(el);
      if (g_sigint.exchange(0) > 0) {
        t->interrupted_ = true;
        t->move_to_input_end();
        write_all(STDOUT_FILENO, "^C\r\n");
        errno = EINTR;
        return -1;
      }
    }
    if (fds[1].revents) {
      drain_fd(t->wake_[0]);
      t->show_pending();
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      unsigned char c;
      ssize_t n = ::read(STDIN_FILENO, &c, 1);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (n <= 0) return n == 0 ? 0 : -1;
      // UTF-8: the continuation bytes of a character follow at once.
      int extra = c < 0x80 ? 0 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
      uint32_t cp = extra == 0 ? c : extra == 1 ? (c & 0x1F) : extra == 2 ? (c & 0x0F) : (c & 0x07);
      for (int i = 0; i < extra; ++i) {
        unsigned char cc;
        if (::read(STDIN_FILENO, &cc, 1) != 1) break;
        cp = (cp << 6) | (cc & 0x3F);
      }
      *out = wchar_t(cp);
      return 1;
    }
  }
}

char* Terminal::prompt_fn(editline* el) {
  Terminal* t = nullptr;
  el_get(el, EL_CLIENTDATA, &t);
  return t->prompt_.data();
}

unsigned char Terminal::complete_fn(editline* el, int) {
  Terminal* t = nullptr;
  el_get(el, EL_CLIENTDATA, &t);
  if (!t->completer_) return CC_ERROR;
  const LineInfo* li = el_line(el);
  std::string_view before(li->buffer, size_t(li->cursor - li->buffer));
  size_t start = before.size();
  std::vector<std::string> cands = t->completer_(before, start);
  std::string_view word = before.substr(std::min(start, before.size()));
  if (cands.empty()) return CC_ERROR;
  std::string common = cands[0];
  for (const auto& c : cands) {
    size_t i = 0;
    while (i < common.size() && i < c.size() && common[i] == c[i]) ++i;
    common.resize(i);
  }
  if (common.size() > word.size()) {
    el_insertstr(el, common.c_str() + word.size());
    return CC_REFRESH;
  }
  if (cands.size() == 1) return CC_REFRESH;
  // Several candidates and nothing to add: list them below the line.
  std::string list;
  for (const auto& c : cands) list += c + "  ";
  t->move_to_input_end();
  write_all(STDOUT_FILENO, "\r\n" + list + "\r\n");
  el_set(el, EL_REFRESH);
  return CC_NORM;
}

}  // namespace humus::repl
