// Drives `humus` through a pseudo-terminal, as a person would, and checks
// what a VT100 screen would show:
//   repl_test HUMUS SCRATCH_DIR
// A tiny screen model interprets the escape sequences libedit and the REPL
// send (cursor moves, erase line, erase below), so "the line being typed is
// intact after background output" is checked on the screen, not on bytes.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

int failures = 0;
// The screen of the session running now: shown with a failed check, so that
// a failure seen once on a loaded machine can be understood from the log.
std::function<std::string()> current_screen;

#define CHECK(cond, what)                                                                    \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::fprintf(stderr, "FAIL line %d: %s\n  (%s)\n", __LINE__, what, #cond);             \
      if (current_screen) std::fprintf(stderr, "the screen:\n%s", current_screen().c_str()); \
      ++failures;                                                                            \
    }                                                                                        \
  } while (0)

std::string rstrip(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// A screen that grows downward (no scrolling needed for these short sessions).
class Screen {
 public:
  static constexpr size_t kCols = 80;

  void feed(const std::string& bytes) {
    for (char ch : bytes) put(static_cast<unsigned char>(ch));
  }
  std::string line(size_t r) const { return r < lines_.size() ? rstrip(lines_[r]) : std::string(); }
  std::string cursor_line() const { return line(row_); }
  size_t row() const { return row_; }
  size_t rows() const { return lines_.size(); }
  // The row of the last line equal to `text`, or -1.
  long find_line(const std::string& text) const {
    for (size_t r = lines_.size(); r-- > 0;)
      if (line(r) == text || rstrip(logical(r)) == text) return long(r);
    return -1;
  }
  size_t count_lines(const std::string& text) const {
    size_t n = 0;
    for (size_t r = 0; r < lines_.size(); ++r) n += line(r) == text;
    return n;
  }
  // Text is looked for in logical lines: rows the terminal wrapped at 80 columns are joined
  // again, so a message does not go unseen because a long path pushed it over the edge.
  bool contains(const std::string& text) const {
    for (size_t r = 0; r < lines_.size(); ++r)
      if (logical(r).find(text) != std::string::npos) return true;
    return false;
  }
  std::string dump() const {
    std::string s;
    for (size_t r = 0; r < lines_.size(); ++r) s += (r == row_ ? "*|" : " |") + line(r) + "\n";
    return s;
  }

 private:
  void put(unsigned char c) {
    if (state_ == 1) {  // after ESC
      if (c == '[') {
        state_ = 2;
        params_.clear();
      } else if (c == '(' || c == ')') {
        state_ = 3;
      } else {
        state_ = 0;
      }
      return;
    }
    if (state_ == 3) {  // ESC ( X
      state_ = 0;
      return;
    }
    if (state_ == 2) {
      if ((c >= '0' && c <= '9') || c == ';' || c == '?') {
        params_ += char(c);
        return;
      }
      state_ = 0;
      csi(c);
      return;
    }
    switch (c) {
      case 0x1B:
        state_ = 1;
        return;
      case '\r':
        col_ = 0;
        return;
      case '\n':
        down(1);
        return;
      case '\b':
        if (col_ > 0) --col_;
        return;
      case '\a':
        return;
      default:
        break;
    }
    if (c < 0x20) return;
    if (col_ >= kCols) {
      col_ = 0;
      if (wrapped_.size() <= row_) wrapped_.resize(row_ + 1);
      wrapped_[row_] = true;
      down(1);
    }
    std::string& l = lines_[row_];
    if (l.size() <= col_) l.resize(col_ + 1, ' ');
    l[col_++] = char(c);
  }
  // Row r and the rows it wrapped into, as one line.
  std::string logical(size_t r) const {
    std::string s = lines_[r];
    while (r < wrapped_.size() && wrapped_[r] && r + 1 < lines_.size()) s += lines_[++r];
    return s;
  }
  void down(size_t n) {
    row_ += n;
    if (lines_.size() <= row_) lines_.resize(row_ + 1);
  }
  void csi(unsigned char f) {
    size_t n = params_.empty() || params_[0] == '?' ? 0 : size_t(std::atoi(params_.c_str()));
    size_t k = n ? n : 1;
    std::string& l = lines_[row_];
    switch (f) {
      case 'A':
        row_ = row_ >= k ? row_ - k : 0;
        break;
      case 'B':
        down(k);
        break;
      case 'C':
        col_ = std::min(kCols - 1, col_ + k);
        break;
      case 'D':
        col_ = col_ >= k ? col_ - k : 0;
        break;
      case 'G':
        col_ = k - 1;
        break;
      case 'K':
        if (n == 0 && l.size() > col_) l.resize(col_);
        if (n == 2) l.clear();
        break;
      case 'J':
        if (n == 0) {
          if (l.size() > col_) l.resize(col_);
          lines_.resize(row_ + 1);
          wrapped_.resize(std::min(wrapped_.size(), row_));
        }
        break;
      case 'P':  // delete characters
        if (col_ < l.size()) l.erase(col_, std::min(k, l.size() - col_));
        break;
      case '@':  // insert blanks
        if (col_ < l.size()) l.insert(col_, k, ' ');
        break;
      default:
        break;  // modes, colours
    }
  }

  std::vector<std::string> lines_{std::string()};
  std::vector<bool> wrapped_;  // wrapped_[r]: row r ran past the last column into row r + 1
  size_t row_ = 0, col_ = 0;
  int state_ = 0;
  std::string params_;
};

class Session {
 public:
  Session(const std::string& humus, const std::string& home) {
    winsize ws{};
    ws.ws_row = 24;
    ws.ws_col = Screen::kCols;
    pid_ = forkpty(&fd_, nullptr, nullptr, &ws);
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("XDG_STATE_HOME", (home + "/state").c_str(), 1);
      setenv("TERM", "vt100", 1);
      execl(humus.c_str(), "humus", static_cast<char*>(nullptr));
      _exit(127);
    }
    current_screen = [this] { return screen_.dump(); };
  }
  ~Session() {
    current_screen = nullptr;
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }

  void type(const std::string& keys) {
    ssize_t r = write(fd_, keys.data(), keys.size());
    (void)r;
  }
  // Reads output until `done(screen)` holds or `seconds` pass.
  bool wait(const std::function<bool(const Screen&)>& done, double seconds = 20) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    for (;;) {
      if (done(screen_)) return true;
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      if (!pump(int(left.count()))) return done(screen_);
    }
    std::fprintf(stderr, "timed out; the screen:\n%s", screen_.dump().c_str());
    return false;
  }
  // Reads whatever arrives within `ms`.
  void settle(int ms) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < end) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      if (!pump(int(std::max<long>(1, left.count())))) break;
    }
  }
  bool prompt() {
    return wait([this](const Screen& s) { return s.cursor_line() == ">" && editing(); });
  }
  // Whether libedit has the terminal (no line discipline, no echo): keys
  // typed before that are echoed by the terminal and again by libedit
  // ("> :lo:lo"). A person is never that quick; a test after a prompt is.
  bool editing() const {
    termios t{};
    return tcgetattr(fd_, &t) == 0 && !(t.c_lflag & (ICANON | ECHO));
  }
  // Types a line and waits for the next prompt, with libedit holding the
  // terminal again: what is typed next is not echoed twice.
  bool enter(const std::string& line) {
    size_t before = screen_.row();
    type(line + "\r");
    return wait([&](const Screen& s) { return s.row() > before && s.cursor_line() == ">" && editing(); });
  }
  // Waits for the process to end; its exit status, or -1.
  int wait_exit(double seconds = 20) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    while (std::chrono::steady_clock::now() < end) {
      pump(50);
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
    }
    return -1;
  }
  const Screen& screen() const { return screen_; }

 private:
  bool pump(int ms) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, std::min(ms, 100)) <= 0) return true;
    char buf[4096];
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) return false;
    screen_.feed(std::string(buf, size_t(n)));
    return true;
  }

  pid_t pid_ = -1;
  int fd_ = -1;
  bool exited_ = false;
  Screen screen_;
};

auto has_line(const std::string& text) {
  return [text](const Screen& s) { return s.find_line(text) >= 0; };
}
auto has_text(const std::string& text) {
  return [text](const Screen& s) { return s.contains(text); };
}

void first_session(const std::string& humus, const std::string& home) {
  Session s(humus, home);
  CHECK(s.prompt(), "the prompt appears");

  // An expression prints its value; a definition persists; redefinition replaces.
  CHECK(s.enter("add(1, 2)"), "evaluates an expression");
  CHECK(s.screen().find_line("3") >= 0, "prints 3");
  CHECK(s.enter("DEF double(x) AS mul(x, 2)"), "a definition");
  CHECK(s.enter("double(21)"), "uses it");
  CHECK(s.screen().find_line("42") >= 0, "prints 42");
  CHECK(s.enter("DEF double(x) AS add(x, x)") && s.enter("double(50)"), "redefines");
  CHECK(s.screen().find_line("100") >= 0, "the new definition is used");

  // Multi-line input: an open [ continues on a '...' line.
  s.type("[\r");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "..."; }), "continuation prompt");
  CHECK(s.enter("  SEND #multi TO println ]"), "the rest of the block");
  CHECK(s.wait(has_line("#multi")), "the block ran");
  s.type("CASE 2 OF\r");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "..."; }), "an open CASE continues");
  s.type("1 : #one\r");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "..."; }), "still open");
  CHECK(s.enter("_ : #other END"), "CASE closed");
  CHECK(s.wait(has_line("#other")), "CASE value printed");

  // History: up-arrow recalls the previous line.
  CHECK(s.enter("double(4)"), "a line for history");
  s.type("\x1b[A");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "> double(4)"; }), "up-arrow recalls it");
  CHECK(s.enter(""), "runs the recalled line");
  CHECK(s.screen().count_lines("8") == 2, "the recalled line ran again");

  // Tab completion of a global and of a keyword.
  s.type("dou\t");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "> double"; }), "completes a global");
  CHECK(s.enter("(5)"), "the completed call runs");
  CHECK(s.screen().find_line("10") >= 0, "double(5) is 10");
  // The scripting built-ins are globals like any other (issue 29).
  // Typed, echoed, then Tab: a Tab in the same write as the text can reach
  // libedit before its echo, and the redraw then confuses this screen.
  s.type("symbol_n");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "> symbol_n"; }), "echoed");
  // What the completed line computes shows the completion (libedit's redraw
  // after a Tab is not always one this screen renders cleanly).
  s.type("\t");
  CHECK(s.enter("(#ok)"), "the completed call runs");
  CHECK(s.wait(has_line("111, 107, NIL")), "symbol_n<Tab>(#ok) is symbol_name(#ok), \"ok\"");
  s.type("forma");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "> forma"; }), "echoed");
  s.type("\t");
  CHECK(s.enter("(\"~p\", 42)"), "format runs");
  CHECK(s.wait(has_line("52, 50, NIL")), "forma<Tab>(\"~p\", 42) is format(\"~p\", 42), \"42\"");
  s.type("CRE\t");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "> CREATE"; }), "completes a keyword");
  // Ctrl-C abandons the line being typed.
  size_t row = s.screen().row();
  s.type("\x03");
  CHECK(s.wait([&](const Screen& sc) { return sc.row() > row && sc.cursor_line() == ">"; }), "Ctrl-C: a new prompt");
  CHECK(s.screen().find_line("> CREATE^C") >= 0, "the abandoned line shows ^C");

  // Errors are reported as in scripts and the session goes on.
  CHECK(s.enter("foo(1)"), "an error");
  CHECK(s.wait(has_text("runtime error: 'foo' is not defined")), "the runtime error is shown");
  CHECK(s.enter("add(1, 2))"), "a syntax error");
  CHECK(s.wait(has_text(":1:10: error: unexpected ')'")), "the syntax error is shown");
  CHECK(s.screen().find_line("         ^") >= 0, "with a caret under the column");
  CHECK(s.enter("add(2, 2)"), "still alive after errors");
  CHECK(s.screen().find_line("4") >= 0, "and evaluating");

  // Background output arrives while a line is half typed: it appears above
  // the prompt, and the half-typed line is still there and completes.
  CHECK(s.enter("AFTER 400 SEND #tick TO println"), "a delayed println");
  s.type("add(10, ");
  CHECK(s.wait(has_line("#tick")), "the background output appears");
  s.settle(200);
  CHECK(s.screen().cursor_line() == "> add(10,", "the partial line is intact");
  CHECK(s.screen().find_line("#tick") == long(s.screen().row()) - 1, "the output is just above the prompt");
  CHECK(s.enter("5)"), "completing the line");
  CHECK(s.screen().find_line("15") >= 0, "the completed line evaluates");

  // A runaway actor: Ctrl-C drains the queue and the REPL stays.
  CHECK(s.enter("CREATE r WITH \\m.[ SEND m TO SELF ]"), "a runaway actor");
  CHECK(s.enter("SEND 0 TO r"), "set it running");
  s.settle(300);
  s.type("\x03");
  CHECK(s.wait(has_line("interrupted: dropped 1 message")), "Ctrl-C reports the dropped messages");
  CHECK(s.prompt(), "and the prompt comes back");
  CHECK(s.enter("add(20, 1)"), "alive after the interrupt");
  CHECK(s.screen().find_line("21") >= 0, "evaluating after the interrupt");

  // An endless loop in the statement being evaluated: Ctrl-C undoes it and
  // the prompt comes back within a second, every binding intact.
  CHECK(s.enter("DEF keep AS 42"), "a binding before");
  CHECK(s.enter("DEF spin(n) AS spin(add(n, 1))"), "an endless loop");
  s.type("spin(0)\r");
  s.settle(1000);  // long enough, even on a loaded machine, for the line to be running (else Ctrl-C only abandons it)
  s.type("\x03");
  CHECK(s.wait(has_text("runtime error: interrupted"), 1), "Ctrl-C interrupts the statement within a second");
  CHECK(s.prompt(), "the prompt comes back");
  CHECK(s.enter("add(keep, 1)"), "the session goes on");
  CHECK(s.screen().find_line("43") >= 0, "with its bindings");

  // The same loop in an actor's event: Ctrl-C at the prompt undoes the event.
  CHECK(s.enter("CREATE looper WITH \\m.[ SEND spin(m) TO println ]"), "an actor that loops");
  CHECK(s.enter("SEND 0 TO looper"), "set it looping");
  s.settle(1000);
  s.type("\x03");
  CHECK(s.wait(has_text("runtime error in actor looper@"), 1) && s.wait(has_text("interrupted: dropped 0 messages"), 1),
        "Ctrl-C interrupts the actor's event within a second");
  CHECK(s.prompt(), "the prompt comes back");
  CHECK(s.enter("add(keep, 2)"), "the session goes on");
  CHECK(s.screen().find_line("44") >= 0, "with its bindings");

  // Commands.
  CHECK(s.enter(":stats"), ":stats");
  CHECK(s.wait(has_text("events run:")) && s.screen().contains("messages queued:    0") &&
            s.screen().contains("actors alive:"),
        ":stats shows counts");
  CHECK(s.enter(":globals"), ":globals");
  CHECK(s.wait(has_text("double = \\<repl:")), ":globals lists a definition");
  CHECK(s.screen().contains("r = @"), ":globals lists an actor");
  CHECK(s.enter(":type 7") && s.screen().find_line("integer") >= 0, ":type of an integer");
  CHECK(s.enter(":type [ SEND 1 TO println ]") && s.screen().find_line("block") >= 0, ":type of a block");
  CHECK(s.enter(":type double") && s.screen().find_line("function") >= 0, ":type of a function");
  CHECK(s.enter(":trace on") && s.enter("SEND #traced TO println"), ":trace on");
  CHECK(s.wait(has_text("trace: println@1 <- #traced")), "trace lines appear");
  CHECK(s.enter(":trace off"), ":trace off");
  {
    std::ofstream f(home + "/defs.hum");
    f << "DEF triple(x) AS mul(x, 3)\n";
  }
  CHECK(s.enter(":load " + home + "/defs.hum") && s.enter("triple(5)"), ":load");
  CHECK(s.wait(has_line("15")), "a loaded definition");
  {
    std::ofstream f(home + "/defs.hum");
    f << "DEF triple(x) AS mul(x, 30)\n";
  }
  CHECK(s.enter(":reload") && s.enter("triple(5)"), ":reload");
  // Waited for, like every other result: the line may come after the prompt
  // has taken the next input (it did once under ASan in CI).
  CHECK(s.wait(has_line("150")), "a reloaded definition");
  // A folder is not a script: the OS's reason, not silence (issue 20, repro 3).
  CHECK(s.enter(":load " + home), ":load of a folder");
  CHECK(s.wait(has_line("humus: cannot read '" + home + "': Is a directory")), ":load says why it cannot");
  CHECK(s.enter(":reset") && s.enter("double(1)"), ":reset");
  CHECK(s.wait(has_text("'double' is not defined")), ":reset forgets definitions");
  CHECK(s.enter(":help") && s.screen().contains(":load FILE"), ":help");
  // Slips a newcomer makes, each answered with what to do instead.
  CHECK(s.enter("help") && s.wait(has_line("type :help for help")), "help points to :help");
  CHECK(s.enter("quit") && s.wait(has_line("type :quit (or Ctrl-D) to leave")), "quit points to :quit");
  CHECK(s.enter("exit()") && s.screen().count_lines("type :quit (or Ctrl-D) to leave") == 2, "so does exit()");
  CHECK(s.enter("DEF double(x) AS add(x, x)"), "define double again");
  CHECK(s.enter("DEF quad(x) AS doubel(doubel(x))"), "a misspelt name in a body");
  CHECK(s.wait(has_text("warning: 'doubel' is not defined; did you mean 'double'?")),
        "a warning, not an error: a later line may define it");
  CHECK(s.enter("quad(2)") && s.wait(has_text("runtime error: 'doubel' is not defined; did you mean 'double'?")),
        "calling it: the runtime error suggests too");
  CHECK(s.enter("DEF doubel(x) AS double(x)") && s.enter("quad(5)") && s.wait(has_line("20")),
        "defined later, it works");
  CHECK(s.enter(":globals") && s.wait(has_text("quad = \\<repl:")), ":globals again");
  CHECK(s.screen().contains("map = ") && !s.screen().contains("prelude_"),
        ":globals lists the prelude's functions, not its internal helpers");
  s.type("prelude_ma\t");
  // What is typed, and nothing a completion would add (prelude_map). After a
  // TAB it cannot complete, libedit sometimes redraws the line in a way this
  // screen does not model (seen once in CI as "> prelude_maprelude_ma"), so
  // the line may hold the typed text more than once, and nothing else.
  auto only_typed = [](const Screen& sc) {
    std::string rest = sc.cursor_line();
    if (!rest.starts_with("> prelude_ma")) return false;
    rest = rest.substr(2);
    for (size_t at; (at = rest.find("prelude_ma")) != std::string::npos;) rest.erase(at, 10);
    return rest.empty();
  };
  CHECK(s.wait(only_typed), "the text typed");
  s.settle(300);  // time for the TAB to be handled
  if (!only_typed(s.screen())) std::fprintf(stderr, "the screen:\n%s", s.screen().dump().c_str());
  CHECK(only_typed(s.screen()), "no completion to internal helpers");
  s.type("\x03");
  CHECK(s.prompt(), "the line abandoned");

  s.type(":quit\r");
  CHECK(s.wait_exit() == 0, ":quit ends the session with status 0");
}

void second_session(const std::string& humus, const std::string& home) {
  CHECK(std::filesystem::exists(home + "/state/humus/history"), "history is saved under XDG_STATE_HOME");
  Session s(humus, home);
  CHECK(s.prompt(), "the prompt appears");
  s.type("\x1b[A");
  CHECK(s.wait([](const Screen& sc) { return sc.cursor_line() == "> :quit"; }), "history from the last session");
  const size_t before = s.screen().row();
  s.type("\x03");
  // A fresh prompt on a new row: the old line also ends in ">"-something,
  // and a Ctrl-D typed while the interrupt is still being handled is lost.
  CHECK(s.wait([&](const Screen& sc) { return sc.row() > before && sc.cursor_line() == ">"; }),
        "Ctrl-C abandons the recalled line");
  s.settle(100);
  s.type("\x04");
  CHECK(s.wait_exit() == 0, "Ctrl-D ends the session with status 0");
}

// Commands used wrongly, each answered with its usage or what to do instead.
void command_slips(const std::string& humus, const std::string& home) {
  Session s(humus, home);
  CHECK(s.prompt(), "the prompt appears");
  CHECK(s.enter(":reload") && s.wait(has_line("nothing to reload: use :load FILE first")), ":reload before any :load");
  CHECK(s.enter(":load") && s.wait(has_line("usage: :load FILE")), ":load without a file");
  // (a short relative name: a long line would wrap on the 80-column screen)
  CHECK(s.enter(":load no_such.hum") && s.wait(has_line("humus: cannot open 'no_such.hum': No such file or directory")),
        ":load of a missing file");
  CHECK(s.enter(":trace maybe") && s.wait(has_line("usage: :trace on|off")), ":trace with a bad argument");
  CHECK(s.enter(":type") && s.wait(has_line("usage: :type EXPR")), ":type without an expression");
  CHECK(s.enter(":frobnicate") && s.wait(has_line("unknown command :frobnicate (:help lists them)")),
        "an unknown command");
  // A script that never ends, run by :load: Ctrl-C interrupts it like a typed line.
  std::ofstream(home + "/s.hum") << "DEF answer AS 42\nDEF spin(n) AS spin(add(n, 1))\nspin(0)\n";
  s.type(":load " + home + "/s.hum\r");
  s.settle(1000);  // long enough for the script to be running
  s.type("\x03");
  CHECK(s.wait(has_text("runtime error: interrupted")), "Ctrl-C interrupts a script run by :load");
  CHECK(s.prompt(), "the prompt comes back");
  CHECK(s.enter("answer") && s.wait(has_line("42")), "the session goes on, with the script's definitions");
  const size_t before = s.screen().row();
  s.type("\x03");  // Ctrl-C on an empty line, nothing running
  CHECK(s.wait(has_line("(Ctrl-D or :quit leaves)")), "Ctrl-C when idle says how to leave");
  CHECK(s.wait([&](const Screen& sc) { return sc.row() > before && sc.cursor_line() == ">"; }), "a new prompt");
  CHECK(s.enter("add(40, 2)") && s.wait(has_line("42")), "the session goes on");
  s.type(":quit\r");
  CHECK(s.wait_exit() == 0, ":quit ends the session with status 0");
}

// Tab completes commands after ':' (issue 30: ":lo<Tab>" completed nothing).
void command_completion(const std::string& humus, const std::string& home) {
  Session s(humus, home);
  CHECK(s.prompt(), "the prompt appears");
  std::ofstream(home + "/c.hum") << "DEF completed AS 7\n";
  // Each key after the echo of the ones before, as a person types. Now and
  // then (seen on a loaded machine) libedit redraws a completed line in a way
  // this screen does not model ("> :loado" for "> :load"), so the screen is
  // checked for the start of the line, and what libedit really holds by
  // pressing Enter: the completed command must run.
  auto type_then_tab = [&](const std::string& keys, const std::string& shown) {
    s.type(keys);
    CHECK(s.wait([&](const Screen& sc) { return sc.cursor_line() == shown; }), "the keys typed are shown");
    s.type("\t");
  };
  auto starts = [](std::string text) {
    return [text](const Screen& sc) { return sc.cursor_line().starts_with(text); };
  };
  type_then_tab(":lo", "> :lo");
  CHECK(s.wait(starts("> :load")), ":lo<Tab> completes :load");
  CHECK(s.enter(" " + home + "/c.hum") && s.enter("completed") && s.wait(has_line("7")), "the completed :load runs");
  // Two commands start with :re: Tab adds nothing and lists both.
  type_then_tab(":re", "> :re");
  CHECK(s.wait(has_line(":reload  :reset")), ":re<Tab> lists :reload and :reset");
  CHECK(s.wait(starts("> :re")) && !s.screen().cursor_line().starts_with("> :rel"), "and adds nothing to the line");
  type_then_tab("l", "> :rel");
  CHECK(s.wait(starts("> :reload")), ":rel<Tab> completes :reload");
  std::ofstream(home + "/c.hum") << "DEF completed AS 8\n";
  CHECK(s.enter("") && s.enter("completed") && s.wait(has_line("8")), "the completed :reload runs");
  // Not at the start of the line, ':' is no command: Tab adds nothing.
  type_then_tab("SEND add(1, 2) TO println :lo", "> SEND add(1, 2) TO println :lo");
  s.settle(300);
  CHECK(!s.screen().cursor_line().starts_with("> SEND add(1, 2) TO println :load"),
        "no command completion after other text");
  s.type("\x03");
  CHECK(s.prompt(), "the line abandoned");
  s.type(":quit\r");
  CHECK(s.wait_exit() == 0, ":quit ends the session with status 0");
}

// :stats counts the session's actors apart from the built-in ones (issue 30:
// "actors alive: 8" next to "actors created: 5" with two actors made).
void stats(const std::string& humus, const std::string& home) {
  Session s(humus, home);
  CHECK(s.prompt(), "the prompt appears");
  CHECK(s.enter(":stats") && s.wait(has_line("actors created:     0")), "a fresh session has created no actor");
  CHECK(s.screen().find_line("actors alive:       0 (of those, not freed yet)") >= 0, "and none is alive");
  CHECK(s.screen().find_line("built-in actors:    9 (println, timer, random, print, testing_pass, clock,") >= 0 &&
            s.screen().find_line("                    stdin, files, cluster)") >= 0,
        "the built-in actors are counted apart, by name, within 80 columns");
  CHECK(s.enter("CREATE a WITH \\m.[ SEND m TO println ]") && s.enter("CREATE b WITH \\m.[]"), "two actors");
  CHECK(s.enter("SEND #one TO a") && s.wait(has_line("#one")), "one of them handles a message");
  CHECK(s.enter(":stats") && s.wait(has_line("actors created:     2")), "two actors created");
  CHECK(s.screen().find_line("actors alive:       2 (of those, not freed yet)") >= 0, "two alive");
  CHECK(s.screen().count_lines("built-in actors:    9 (println, timer, random, print, testing_pass, clock,") == 2,
        "the built-in ones are the same nine");
  CHECK(s.screen().find_line("events run:         2") >= 0, "the events: a's, and println's");
  s.type(":quit\r");
  CHECK(s.wait_exit() == 0, ":quit ends the session with status 0");
}

// A loop of slow turns (squaring a huge integer each) reaches no safe point
// for minutes: one Ctrl-C cannot stop it, the third ends the process.
void runaway(const std::string& humus, const std::string& home) {
  Session s(humus, home);
  CHECK(s.prompt(), "the prompt appears");
  CHECK(s.enter("DEF sq(x, k) AS IF $k = 0 x ELSE sq(mul(x, x), sub(k, 1))"), "a loop of slow turns");
  s.type("length(sq(3, 40))\r");
  s.settle(1000);  // running, and far from a safe point
  for (int i = 0; i < 3; ++i) {
    s.type("\x03");
    s.settle(100);
  }
  CHECK(s.wait(has_text("humus: interrupted")), "the third Ctrl-C says it ends the session");
  CHECK(s.wait_exit() == 130, "and ends it with status 130");
}

void piped(const std::string& humus) {
  std::string cmd = "echo 'SEND add(40, 2) TO println' | " + humus;
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[256];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int rc = pclose(p);
  CHECK(out == "42\n" && rc == 0, "standard input that is not a terminal is a script");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: repl_test HUMUS SCRATCH_DIR\n");
    return 2;
  }
  std::string humus = argv[1], home = argv[2];
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home);
  first_session(humus, home);
  second_session(humus, home);
  command_slips(humus, home);
  command_completion(humus, home);
  stats(humus, home);
  runaway(humus, home);
  piped(humus);
  if (failures)
    std::fprintf(stderr, "%d checks failed\n", failures);
  else
    std::printf("all REPL checks passed\n");
  return failures ? 1 : 0;
}
