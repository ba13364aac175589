// The REPL's terminal: line editing (libedit), history, and output that
// arrives from other threads while a line is being typed.
//
// Every write to the terminal goes through one mutex. While a line is being
// edited, output from worker threads (println, runtime errors) is queued and
// the editing thread is woken through a pipe: it erases the prompt and the
// line being typed, prints the output, and redraws both, so the line is
// never mangled. Ctrl-C (SIGINT) reaches the editing thread through another
// pipe; the handler itself only counts and writes a byte.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

struct editline;
struct history;

namespace humus::repl {

class Terminal {
 public:
  // Candidates for the word that ends the text before the cursor; sets
  // `word_start` to where that word begins in `before_cursor`.
  using Completer = std::function<std::vector<std::string>(std::string_view before_cursor, size_t& word_start)>;

  explicit Terminal(std::string history_file);
  ~Terminal();
  Terminal(const Terminal&) = delete;
  Terminal& operator=(const Terminal&) = delete;

  enum class Read { Line, Interrupted, Eof };
  // Reads one line (without its newline). On Interrupted, `line` holds what
  // had been typed before Ctrl-C.
  Read read_line(const std::string& prompt, std::string& line);
  void add_history(const std::string& line);
  void set_completer(Completer c) { completer_ = std::move(c); }

  // Thread-safe output: program output and diagnostics.
  void write(std::string_view text, bool to_err);

  // While the REPL evaluates, Ctrl-C calls `on_interrupt(arg)` from the
  // signal handler (so it must be async-signal-safe), and three Ctrl-C in a
  // row end the process (the way out of what nothing else reaches).
  void set_busy(bool busy, void (*on_interrupt)(void*) = nullptr, void* arg = nullptr);

 private:
  static int getc_fn(editline* el, wchar_t* out);
  static char* prompt_fn(editline* el);
  static unsigned char complete_fn(editline* el, int ch);

  void show_pending();       // editing thread: print queued output, redraw the line
  void erase_input();        // editing thread: clear the prompt and line from the screen
  void move_to_input_end();  // editing thread: cursor after the last character typed
  int columns() const;
  size_t cursor_offset(bool at_end) const;

  editline* el_ = nullptr;
  history* hist_ = nullptr;
  std::string history_file_;
  std::string prompt_;
  Completer completer_;
  bool interrupted_ = false;

  std::mutex mutex_;  // guards editing_ and pending_, serialises writes
  bool editing_ = false;
  std::string pending_;
  int wake_[2] = {-1, -1};
};

}  // namespace humus::repl
