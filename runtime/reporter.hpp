// What a runtime says on its error stream: runtime errors with the line of
// source and a caret, warnings, and the `testing` module's tally.
//
// Workers, the timer thread and hosts report at once: one lock keeps each
// report whole on the stream. The reporter keeps no source text; whoever
// compiled the code answers through a SourceViewer (the interpreter), or
// nobody does and reports name only the place.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/actor.hpp"
#include "runtime/errors.hpp"
#include "runtime/print.hpp"
#include "runtime/source_loc.hpp"

namespace humus::rt {

using TextSink = std::function<void(std::string_view)>;

// What diagnostics show of the source at a location: its column in
// characters (SourceLoc counts bytes) and the source line with a caret
// under that column ("LINE\n   ^\n").
struct SourceView {
  uint32_t column = 0;
  std::string window;
};
using SourceViewer = std::function<std::optional<SourceView>(const SourceLoc&)>;

// A failed check of the `testing` module: its label and where it failed
// ("t.hum:3:1", "in actor e@4"...), for the tally at the end of the run.
struct FailedCheck {
  std::string label, where;
};

class Reporter {
 public:
  static constexpr size_t kFailedChecksKept = 20;  // the first ones; the tally counts the rest

  Reporter(TextSink err, PrintLimit shown) : err_(std::move(err)), shown_(shown) {}

  // Set before anything runs; called from any thread (it must be safe so).
  void set_source_viewer(SourceViewer viewer) { source_viewer_ = std::move(viewer); }

  // Writes `text` whole.
  void write(std::string_view text) const;
  // "FILE:LINE:COLUMN", the column in characters when the source is known.
  std::string location(const SourceLoc& loc) const;
  // "FILE:LINE:COL: KIND", or "humus: KIND" for a place outside any program.
  std::string headline(const SourceLoc& loc, std::string_view kind) const;
  // A value as diagnostics show it: bounded, and readable (print.hpp).
  std::string shown(const Value& v) const {
    PrintLimit limit = shown_;
    limit.readable = true;
    return to_string(v, limit);
  }

  // A failed event (actor null for a top-level statement): counted, and
  // written with the source line, a caret under the error's column and the
  // message it was handling; a failed check is noted for the tally.
  void error(const EventError& e, const Actor* actor, const Value* message);
  // "FILE:LINE:COLUMN: warning: MESSAGE".
  void warning(const SourceLoc& loc, const std::string& message) const;
  // An actor that did not take `message`: where its behavior was made.
  void unhandled(const Actor& actor, const Value& message) const;

  uint64_t errors() const { return errors_.load(std::memory_order_relaxed); }
  void count_passed_check() { checks_passed_.fetch_add(1, std::memory_order_relaxed); }
  uint64_t checks_passed() const { return checks_passed_.load(std::memory_order_relaxed); }
  uint64_t checks_failed() const { return checks_failed_.load(std::memory_order_relaxed); }
  std::vector<FailedCheck> failed_checks() const;

 private:
  void note_failed_check(const EventError& e, const Actor* actor);

  TextSink err_;
  PrintLimit shown_;
  mutable std::mutex err_mutex_;
  SourceViewer source_viewer_;
  std::atomic<uint64_t> errors_{0};
  std::atomic<uint64_t> checks_passed_{0};
  std::atomic<uint64_t> checks_failed_{0};
  mutable std::mutex failed_checks_mutex_;
  std::vector<FailedCheck> failed_checks_;  // the first kFailedChecksKept, in the order reported
};

}  // namespace humus::rt
