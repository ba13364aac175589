#include "interpreter/repl/repl.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "grammar/hints.hpp"
#include "interpreter/repl/repl_terminal.hpp"
#include "interpreter/session.hpp"
#include "runtime/print.hpp"

namespace humus::repl {

namespace {

namespace fs = std::filesystem;

const char kHelp[] =
    "Type a statement to run it, or an expression to see its value.\n"
    "Definitions stay for the session; defining a name again replaces it.\n"
    "Input continues on a '...' line while a [ ( \" or CASE is open.\n"
    "\n"
    "  :help            this text\n"
    "  :load FILE       run a script (its definitions join the session)\n"
    "  :reload          run the last :load FILE again\n"
    "  :globals         the globals that have a value\n"
    "  :type EXPR       the kind of EXPR's value\n"
    "  :stats           actors created and alive, events, queued and unhandled messages\n"
    "  :trace on|off    print every message-event\n"
    "  :reset           start again with a fresh interpreter\n"
    "  :quit            leave (Ctrl-D too)\n"
    "\n"
    "Ctrl-C abandons the line being typed; on an empty line it stops the\n"
    "actors' messages (they are dropped). Tab completes names.\n"
    "\n"
    "Rules worth knowing (docs/language.md):\n"
    "  f(x) is a call; f (x), with a space, is f followed by (x).\n"
    "  In a pattern a name binds: IF n = 0 ... always holds; IF $n = 0 compares.\n"
    "  IF $x = 1 [ ... ] and the older IF $x = 1 : [ ... ] are the same.\n"
    "  '#' and a space (or another '#') start a comment; #name is a symbol.\n"
    "  Applying a non-function gives ?, a SEND to a non-actor is dropped, a\n"
    "  statement whose value is not a block does nothing: humus -W (or\n"
    "  :trace on) reports each with its place.\n";

std::string history_path() {
  std::error_code ec;
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) {
    fs::path dir = fs::path(state) / "humus";
    fs::create_directories(dir, ec);
    if (!ec) return (dir / "history").string();
  }
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".humus_history").string();
  return {};
}

bool is_ident_char(unsigned char c) {
  if (c < 0x20 || c == 0x7F) return false;
  return std::string_view(" \t\r\n#$(),.:;=[\\]\"").find(char(c)) == std::string_view::npos;
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

const char* kind_of(const rt::Value& v) {
  if (v.is_integer()) return "integer";
  if (v.is_boolean()) return "boolean";
  if (v.is_symbol()) return "symbol";
  if (v.is_nil()) return "nil";
  if (v.is_undefined()) return "undefined";
  if (v.is_cons()) return "pair";  // a packed string too (runtime/str.hpp)
  if (v.is_actor()) return "actor";
  if (v.is_function()) return "function";
  if (v.is_block()) return "block";
  return "value";
}

class Repl {
 public:
  Repl(const rt::RuntimeOptions& options, bool prelude, bool sandbox)
      : base_(options), prelude_(prelude), sandbox_(sandbox), term_(history_path()) {
    repl_thread_ = std::this_thread::get_id();
    term_.set_completer([this](std::string_view before, size_t& start) { return complete(before, start); });
    reset();
  }

  int run() {
    out("humus " HUMUS_VERSION " -- :help for help, Ctrl-D to leave\n");
    std::string line;
    while (!quit_) {
      Terminal::Read r = term_.read_line(input_.empty() ? "> " : "... ", line);
      if (r == Terminal::Read::Eof) break;
      if (r == Terminal::Read::Interrupted) {
        interrupt(!input_.empty() || !line.empty());
        continue;
      }
      if (!trim(line).empty()) term_.add_history(line);
      if (input_.empty() && trim(line).starts_with(':')) {
        // Ctrl-C interrupts what a command runs (:load, :type), but for
        // :reset, which replaces the runtime the interrupt hook points at.
        const std::string cmd = trim(line);
        busy([&] { command(cmd); }, !cmd.starts_with(":reset"));
        continue;
      }
      input_ += line;
      input_ += '\n';
      if (trim(input_).empty()) {
        input_.clear();
        continue;
      }
      busy([&] { evaluate(); });
    }
    return 0;
  }

 private:
  void out(std::string_view s) { term_.write(s, false); }
  void err(std::string_view s) { term_.write(s, true); }

  // Runs f with the terminal busy: Ctrl-C then interrupts what runs now
  // (the statement being evaluated and the events running: undone, every
  // binding kept) and the prompt comes back.
  // (Not for :reset: it makes a new runtime under the hook's feet.)
  template <typename F>
  void busy(F&& f, bool interruptible = true) {
    if (interruptible)
      term_.set_busy(true, &interrupt_runtime, &session_->runtime());
    else
      term_.set_busy(true);
    f();
    term_.set_busy(false);
  }
  static void interrupt_runtime(void* runtime) { static_cast<rt::Runtime*>(runtime)->interrupt_events(); }

  void reset() {
    session_.reset();
    rt::RuntimeOptions o = base_;
    o.devices.standard_input = false;  // the prompt reads standard input
    o.devices.denied = "the REPL reads standard input itself";
    o.out = [this](std::string_view s) { out(s); };
    o.err = [this](std::string_view s) {
      // Diagnostics of the REPL's own parse are held back until we know
      // whether the input is complete.
      if (std::this_thread::get_id() == repl_thread_ && capturing_)
        captured_ += s;
      else
        err(s);
    };
    interp::Session::Options so;
    so.runtime = std::move(o);
    so.prelude = prelude_;
    so.sandbox = sandbox_;
    session_ = std::make_unique<interp::Session>(std::move(so));
    session_->open();  // reports its own errors
    session_->start();
  }

  // Parses and compiles `text`, holding back the diagnostics of incomplete input.
  engine::CompiledUnit* load(std::string name, std::string text, bool* incomplete) {
    auto source = std::make_shared<ast::Source>(ast::Source{std::move(name), std::move(text)});
    captured_.clear();
    capturing_ = true;
    // A name defined nowhere yet: a warning, as a later entry may define it.
    interp::Session::Entry entry;
    entry.names = interp::Session::Names::Warnings;
    interp::Session::Compiled c = session_->compile(source, entry, true);
    engine::CompiledUnit* unit = c.unit;
    const bool inc = c.incomplete;
    capturing_ = false;
    if (incomplete) *incomplete = inc;
    if (!unit && inc && incomplete) return nullptr;
    if (!captured_.empty()) err(captured_);
    return unit;
  }

  // `help`, `quit` and `exit` typed as in other shells: where to find them
  // (unless the session has defined the name, which then wins).
  bool command_word() {
    std::string word = trim(input_);
    if (word.ends_with("()")) word.resize(word.size() - 2);
    const char* hint = word == "help"                     ? "type :help for help\n"
                       : word == "quit" || word == "exit" ? "type :quit (or Ctrl-D) to leave\n"
                                                          : nullptr;
    if (!hint) return false;
    auto slot = session_->runtime().globals().find(word);
    if (slot && !session_->runtime().globals().get(*slot).empty()) return false;
    input_.clear();
    out(hint);
    return true;
  }

  void evaluate() {
    if (command_word()) return;
    bool incomplete = false;
    engine::CompiledUnit* unit = load("<repl:" + std::to_string(entries_ + 1) + ">", input_, &incomplete);
    if (!unit && incomplete) return;  // more lines to come
    ++entries_;
    input_.clear();
    if (!unit) return;
    interp::Session::Entry entry;
    entry.on_value = [this](const rt::Value& v) {
      std::string s = rt::to_string(v);
      s += '\n';
      out(s);
    };
    session_->run(*unit, entry);
  }

  void interrupt(bool had_input) {
    input_.clear();
    if (had_input) return;
    rt::RuntimeStats s = session_->runtime().stats();
    if (s.queued == 0) {
      out("(Ctrl-D or :quit leaves)\n");
      return;
    }
    busy([&] {
      // An event that never ends (an actor in an endless loop) fails at its
      // next safe point, undone; then the queue is dropped.
      session_->runtime().interrupt_events();
      uint64_t dropped = session_->runtime().drain();
      out("interrupted: dropped " + std::to_string(dropped) + " message" + (dropped == 1 ? "" : "s") + "\n");
    });
  }

  void command(const std::string& line) {
    size_t sp = line.find_first_of(" \t");
    std::string cmd = line.substr(0, sp);
    std::string arg = sp == std::string::npos ? std::string() : trim(line.substr(sp));
    if (cmd == ":help" || cmd == ":h" || cmd == ":?") {
      out(kHelp);
    } else if (cmd == ":quit" || cmd == ":q" || cmd == ":exit") {
      quit_ = true;
    } else if (cmd == ":load" || cmd == ":l") {
      if (arg.empty()) return err("usage: :load FILE\n");
      last_load_ = arg;
      load_file(arg);
    } else if (cmd == ":reload" || cmd == ":r") {
      if (last_load_.empty()) return err("nothing to reload: use :load FILE first\n");
      load_file(last_load_);
    } else if (cmd == ":stats") {
      // The session's own actors, apart from the built-in ones: those are
      // made with the runtime and never freed, and only some have numbers.
      const rt::RuntimeStats s = session_->runtime().stats();
      const auto& builtins = session_->runtime().builtin_actor_names();
      // Their names in parentheses, the lines kept within 80 columns.
      std::string names = "built-in actors:    " + std::to_string(s.builtin_actors) + " (";
      size_t line_start = 0;
      for (size_t i = 0; i < builtins.size(); ++i) {
        const std::string word = builtins[i] + (i + 1 < builtins.size() ? "," : ")");
        if (names.size() - line_start + 1 + word.size() > 79) {
          names += "\n";
          line_start = names.size();
          names += std::string(20, ' ');
        } else if (i > 0) {
          names += ' ';
        }
        names += word;
      }
      std::ostringstream o;
      o << "actors created:     " << s.actors - s.builtin_numbered << "\n"
        << "actors alive:       " << s.live_actors - int64_t(s.builtin_actors) << " (of those, not freed yet)\n"
        << names << "\n"
        << "events run:         " << s.events << "\n"
        << "messages queued:    " << s.queued << "\n"
        << "unhandled messages: " << s.unhandled << "\n"
        << "errors:             " << s.errors << "\n";
      out(o.str());
    } else if (cmd == ":trace") {
      if (arg == "on" || arg == "off") {
        session_->runtime().set_trace(arg == "on");
        out(std::string("trace ") + arg + "\n");
      } else {
        err("usage: :trace on|off\n");
      }
    } else if (cmd == ":globals") {
      std::string o;
      for (const auto& [name, value] : session_->runtime().globals().bound()) {
        if (rt::Globals::is_internal(name)) continue;
        std::string v = rt::to_string(value);
        if (v.size() > 60) v = v.substr(0, 60) + "...";
        o += name + " = " + v + "\n";
      }
      out(o);
    } else if (cmd == ":type" || cmd == ":t") {
      if (arg.empty()) return err("usage: :type EXPR\n");
      type_of(arg);
    } else if (cmd == ":reset") {
      reset();
      out("a fresh interpreter: every definition and actor is gone\n");
    } else {
      err("unknown command " + cmd + " (:help lists them)\n");
    }
  }

  void load_file(const std::string& path) {
    std::string error;
    ast::SourcePtr source = interp::read_source_file(path, error);
    if (!source) return err("humus: " + error + "\n");
    engine::CompiledUnit* unit = load(source->name, source->text, nullptr);
    if (unit) session_->run(*unit, interp::Session::Entry{});
  }

  // The expression goes in a pair, so a block is shown rather than run.
  void type_of(const std::string& expr) {
    engine::CompiledUnit* unit = load("<type>", "((" + expr + "\n), 0)", nullptr);
    if (!unit) return;
    interp::Session::Entry entry;
    entry.on_value = [this](const rt::Value& v) {
      if (v.is_pair()) out(std::string(kind_of(rt::head(v))) + "\n");
    };
    session_->run(*unit, entry);
  }

  std::vector<std::string> complete(std::string_view before, size_t& start) {
    start = before.size();
    while (start > 0 && is_ident_char(static_cast<unsigned char>(before[start - 1]))) --start;
    std::string_view word = before.substr(start);
    std::vector<std::string> names;
    bool in_string = start > 0 && before[start - 1] == '"';
    if (in_string) {
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(HUMUS_STDLIB_DIR, ec))
        if (e.path().extension() == ".hum") names.push_back(e.path().stem().string());
    } else if (start > 0 && before[start - 1] == ':' &&
               before.substr(0, start - 1).find_first_not_of(" \t") == std::string_view::npos) {
      // A command: ':' is no part of a name, so the word starts one back.
      word = before.substr(--start);
      for (const char* c : {":help", ":load", ":reload", ":quit", ":stats", ":trace", ":globals", ":type", ":reset"})
        names.emplace_back(c);
    } else {
      for (const std::string& k : parse::keyword_names()) names.push_back(k);
      for (const auto& g : session_->runtime().globals().bound())
        if (!rt::Globals::is_internal(g.first)) names.push_back(g.first);
    }
    std::vector<std::string> out;
    for (auto& n : names)
      if (n.starts_with(word)) out.push_back(std::move(n));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  rt::RuntimeOptions base_;
  bool prelude_;
  bool sandbox_;
  Terminal term_;
  std::unique_ptr<interp::Session> session_;
  std::thread::id repl_thread_;
  bool capturing_ = false;
  std::string captured_;
  std::string input_;  // the lines of an unfinished entry
  std::string last_load_;
  bool quit_ = false;
  unsigned entries_ = 0;
};

}  // namespace

int run_repl(const rt::RuntimeOptions& options, bool prelude, bool sandbox) {
  Repl repl(options, prelude, sandbox);
  return repl.run();
}

}  // namespace humus::repl
