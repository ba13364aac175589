// What fuzz_run and fuzz_alloc do with an input: run it as a small program
// under tight resource limits (runtime/limits.hpp: at most 2000 events, 200
// actors, integers of 64 KB, kInputTime), with the prelude if it uses it.
// Programs that end, fail, or hit a limit are all fine; a crash, leak or
// sanitizer report is a bug.
//
// Fast, so that a minute covers ground:
// - no thread is started per input: the events run on one long-lived
//   big-stack thread, as in the playground (RuntimeOptions::threads = 0 and
//   Runtime::run_for; the one-second limit is kept here rather than by a
//   monitor thread), and a timer further off than 20 ms ends the run
//   instead of being waited for;
// - the prelude, whose compilation was most of an input's time (and most of
//   the coverage libFuzzer sorts through after each run, all of it the same),
//   loads only the definitions that the input, and the standard-library
//   modules it imports, name, and those these name in turn (issue 34: a
//   fifth of fuzz_run's time went to compiling all fifty): the others can't
//   be reached, since a global is reached only by its name. An input that
//   imports a file, or the prelude itself, gets all of it. The whole prelude
//   still loads once, first, and must load.
// The cycle collector looks every 16 actors, and the input's hash picks a
// safe point at which the run is interrupted (as Stop in the playground
// does), so both are fuzzed too.
#pragma once

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "interpreter/interpreter.hpp"
#include "runtime/limits.hpp"
#include "runtime/stack_guard.hpp"

namespace humus::fuzz {

// How long one input may run. The few inputs that loop until stopped set the
// rate: with one second they were half of all the time (issue 34 asks for
// 500 inputs a second). The fuzz build checks it every 4,096 calls
// (kSafePointTicks), so a loop overruns it by little.
inline constexpr auto kInputTime = std::chrono::milliseconds(10);

// One thread with a big stack (the interpreter's deep recursion checks need
// one), kept for the whole process: starting one per input cost a tenth of
// the time (mapping and unmapping its stack).
class StackThread {
 public:
  static StackThread& get() {
    static StackThread* t = new StackThread;  // never joined: it lives as long as the process
    return *t;
  }
  // Runs fn on the thread and waits for it; rethrows what it throws.
  void run(const std::function<void()>& fn) {
    std::unique_lock lock(m_);
    job_ = &fn;
    error_ = nullptr;
    cv_.notify_all();
    cv_.wait(lock, [this] { return !job_; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  StackThread()
      : thread_([this] {
          std::unique_lock lock(m_);
          for (;;) {
            cv_.wait(lock, [this] { return job_ != nullptr; });
            try {
              (*job_)();
            } catch (...) {
              error_ = std::current_exception();
            }
            job_ = nullptr;
            cv_.notify_all();
          }
        }) {}
  std::mutex m_;
  std::condition_variable cv_;
  const std::function<void()>* job_ = nullptr;
  std::exception_ptr error_;
  rt::BigStackThread thread_;  // last: starts once the fields above are made
};

inline bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Calls f with each word (letters, digits, '_') of text.
template <class F>
void for_each_word(std::string_view text, F&& f) {
  for (size_t i = 0; i < text.size();) {
    if (!is_word_char(text[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && is_word_char(text[j])) ++j;
    f(text.substr(i, j - i));
    i = j;
  }
}

// The prelude's source cut into its top-level definitions (each starts at a
// line beginning with DEF; the prelude is written so), with the words each
// mentions: what an input needs of it is the definitions its words name,
// and theirs in turn. Found once, after checking that the whole prelude loads.
struct PreludeIndex {
  struct Part {
    size_t begin = 0, end = 0;  // its text in `text`, up to the next part
    std::vector<std::string> words;
  };
  std::string path, text;
  std::vector<Part> parts;
  std::unordered_map<std::string, size_t> by_name;  // a name the prelude binds -> its part
};

inline const PreludeIndex& prelude_index() {
  static const PreludeIndex index = [] {
    PreludeIndex x;
    x.path = interp::resolve_module("prelude", "");
    std::ifstream in(x.path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    x.text = text.str();
    for (size_t at = 0; at < x.text.size();) {
      const size_t eol = std::min(x.text.find('\n', at), x.text.size());
      if (x.text.compare(at, 4, "DEF ") == 0) {
        if (!x.parts.empty()) x.parts.back().end = at;
        x.parts.push_back({at, x.text.size(), {}});
      }
      at = eol + 1;
    }
    std::unordered_set<std::string> bound;  // what loading it binds (the names of its definitions)
    StackThread::get().run([&] {
      rt::RuntimeOptions ro;
      ro.threads = 0;
      ro.out = [](std::string_view) {};
      ro.err = [](std::string_view) {};
      interp::Interpreter interp(ro);
      std::unordered_set<std::string> before;
      for (auto& [name, v] : interp.runtime().globals().bound()) before.insert(name);
      if (interp.load_prelude() != interp::Interpreter::Outcome::Ok) __builtin_trap();
      for (auto& [name, v] : interp.runtime().globals().bound())
        if (!before.count(name)) bound.insert(name);
    });
    for (size_t k = 0; k < x.parts.size(); ++k) {
      auto& part = x.parts[k];
      const std::string_view t = std::string_view(x.text).substr(part.begin, part.end - part.begin);
      size_t name_end = 4;
      while (name_end < t.size() && is_word_char(t[name_end])) ++name_end;
      x.by_name.emplace(std::string(t.substr(4, name_end - 4)), k);
      for_each_word(t, [&](std::string_view w) { part.words.emplace_back(w); });
    }
    // Every name the prelude binds is found by its part (or the subset below would miss one).
    for (const auto& name : bound)
      if (!x.by_name.count(name)) __builtin_trap();
    return x;
  }();
  return index;
}

// The text of standard-library module `name` ("" when there is none), read
// once (the fuzz targets and the test that uses this run on one thread).
inline const std::string& module_text(const std::string& name) {
  static std::unordered_map<std::string, std::string> texts;
  auto [it, fresh] = texts.try_emplace(name);
  if (fresh) {
    const std::string path = interp::resolve_module(name, "");
    if (!path.empty()) {
      std::ifstream in(path, std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      it->second = text.str();
    }
  }
  return it->second;
}

// Calls reach with every word of `code` and of the standard-library modules
// it imports, and those they import; false when it imports anything else (a
// file, or the prelude itself), which may use any of the prelude. IMPORT with
// no string after it is no import (a comment's word; else a syntax error,
// and nothing runs).
template <class F>
bool reach_words(std::string_view code, std::unordered_set<std::string>& seen, F& reach) {
  for_each_word(code, reach);
  for (size_t at = code.find("IMPORT"); at != std::string_view::npos; at = code.find("IMPORT", at + 6)) {
    size_t i = at + 6;
    for (;;) {  // blanks and comments
      while (i < code.size() && std::isspace(static_cast<unsigned char>(code[i]))) ++i;
      if (i >= code.size() || code[i] != '#') break;
      i = std::min(code.find('\n', i), code.size());
    }
    if (i >= code.size() || code[i] != '"') continue;
    const size_t close = code.find('"', i + 1);
    if (close == std::string_view::npos) return false;
    const std::string name(code.substr(i + 1, close - i - 1));
    if (name == "prelude" || name.find('\\') != std::string::npos || !interp::is_stdlib_module(name)) return false;
    if (seen.insert(name).second && !reach_words(module_text(name), seen, reach)) return false;
  }
  return true;
}

// The prelude's text with only the definitions `code` reaches (by its words,
// the modules it imports, and the definitions these name in turn): the
// others blanked to their line breaks, so that every line keeps its number.
// Empty when it reaches none, or when `whole` is set: `code` imports
// something that needs the whole prelude loaded, as the humus command does.
inline std::string prelude_for(std::string_view code, bool& whole) {
  const PreludeIndex& index = prelude_index();
  std::vector<bool> needed(index.parts.size());
  std::vector<size_t> todo;
  auto reach = [&](std::string_view w) {
    auto it = index.by_name.find(std::string(w));
    if (it == index.by_name.end() || needed[it->second]) return;
    needed[it->second] = true;
    todo.push_back(it->second);
  };
  std::unordered_set<std::string> seen;
  whole = !reach_words(code, seen, reach);
  if (whole || todo.empty()) return {};
  while (!todo.empty()) {
    const size_t k = todo.back();
    todo.pop_back();
    for (const auto& w : index.parts[k].words) reach(w);
  }
  std::string out;
  size_t at = 0;
  for (size_t k = 0; k < index.parts.size(); ++k) {
    const auto& part = index.parts[k];
    for (; at < part.begin; ++at)  // the text before it: comments
      if (index.text[at] == '\n') out += '\n';
    if (needed[k])
      out.append(index.text, part.begin, part.end - part.begin);
    else
      for (size_t i = part.begin; i < part.end; ++i)
        if (index.text[i] == '\n') out += '\n';
    at = part.end;
  }
  return out;
}

// Runs `code` (with the prelude if it uses it); `armed` is called just
// before the program is compiled (fuzz_alloc arms its failing allocator
// there: the prelude must load). `output`, when given, receives what the
// program prints, and `whole_prelude` loads all of it, as the humus command
// does (tests/unit/interpreter/fuzz_prelude_test.cpp compares the two, with
// a `time_limit` that no script reaches).
inline void run_program(std::string code, const std::function<void()>& armed = {}, std::string* output = nullptr,
                        bool whole_prelude = false, std::chrono::milliseconds time_limit = kInputTime) {
  // 0: never interrupted; else at that safe point (each is kSafePointTicks calls).
  const uint64_t interrupt_at = std::hash<std::string_view>{}(code) % 4;
  bool whole = false;
  std::string prelude_text = prelude_for(code, whole);
  if (whole_prelude && !prelude_text.empty()) {
    prelude_text.clear();
    whole = true;
  }
  ast::SourcePtr prelude;
  if (!prelude_text.empty())  // as the prelude's import makes it: a library module's source
    prelude = std::make_shared<ast::Source>(ast::Source{"stdlib/prelude.hum", std::move(prelude_text), true});
  auto source = std::make_shared<ast::Source>(ast::Source{"fuzz.hum", std::move(code)});
  rt::RuntimeOptions ro;
  ro.threads = 0;
  ro.seed = 1;
  ro.out = [output](std::string_view text) {
    if (output) output->append(text);
  };
  ro.err = [](std::string_view) {};
  ro.limits.max_events = 2000;
  ro.limits.max_actors = 200;
  // Integers past 64 KB fail their event (--max-memory itself would cap
  // the process's allocations, which a sanitizer's own make meaningless).
  ro.limits.max_integer = 64 << 10;
  ro.cycle_check = 16;
  const auto deadline = std::chrono::steady_clock::now() + time_limit;
  uint64_t safe_points = 0;
  ro.interrupt_requested = [&] {
    return ++safe_points == interrupt_at || std::chrono::steady_clock::now() >= deadline;
  };
  StackThread::get().run([&] {
    interp::Interpreter interp(ro);
    if (whole && interp.load_prelude() != interp::Interpreter::Outcome::Ok) __builtin_trap();
    if (prelude && interp.run_source(prelude) != interp::Interpreter::Outcome::Ok) __builtin_trap();
    if (armed) armed();
    engine::CompiledUnit* unit = interp.load(source);
    if (!unit) return;
    interp.run(*unit);
    interp.start();
    rt::Runtime& runtime = interp.runtime();
    for (;;) {
      const rt::Runtime::Slice slice = runtime.run_for(time_limit);
      if (std::chrono::steady_clock::now() >= deadline) break;
      if (slice.more) continue;
      if (slice.wait_ms < 0 || slice.wait_ms > 20) break;  // over, or a timer too far off to wait for
      std::this_thread::sleep_for(std::chrono::milliseconds(slice.wait_ms));
    }
    runtime.collect_cycles();
  });
}

}  // namespace humus::fuzz
