// The JSON form of a trace: one object per message-event, one per line
// (JSON Lines), as docs/trace.schema.json describes. `humus --trace=json`
// writes it; the playground reads it.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "runtime/trace.hpp"

namespace humus::trace {

// The most entries of `sent` and of `created` a record lists; the rest are
// counted (`sent_omitted`, `created_omitted`). A line is then at most about
// 2,000 x 250 bytes, 0.5 MB, however many messages the event sent.
inline constexpr size_t kTraceListLimit = 2000;

// One event as a JSON object, without a newline.
std::string to_json(const rt::TraceEvent& e);

// A JSON string literal (quotes included) for `text`.
void append_json_string(std::string& out, std::string_view text);

// Writes each event as a line of JSON.
class JsonWriter final : public rt::TraceSink {
 public:
  explicit JsonWriter(std::function<void(std::string_view)> out) : out_(std::move(out)) {}
  void event(const rt::TraceEvent& e) override {
    std::string line = to_json(e);
    line += '\n';
    out_(line);
  }

 private:
  std::function<void(std::string_view)> out_;
};

// Passes each event to several sinks (a JSON file and a diagram).
class Tee final : public rt::TraceSink {
 public:
  void add(rt::TraceSink* sink) { sinks_.push_back(sink); }
  void event(const rt::TraceEvent& e) override {
    for (auto* s : sinks_) s->event(e);
  }

 private:
  std::vector<rt::TraceSink*> sinks_;
};

}  // namespace humus::trace
