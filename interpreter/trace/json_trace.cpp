#include "interpreter/trace/json_trace.hpp"

#include <algorithm>
#include <cstdio>

namespace humus::trace {

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  out += '"';
}

namespace {

// The builder of one object: "key":value pairs with commas between them.
class Object {
 public:
  explicit Object(std::string& out) : out_(out) { out_ += '{'; }
  ~Object() { out_ += '}'; }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  void key(const char* k) {
    if (!first_) out_ += ',';
    first_ = false;
    out_ += '"';
    out_ += k;
    out_ += "\":";
  }
  void num(const char* k, int64_t v) {
    key(k);
    out_ += std::to_string(v);
  }
  void id_or_null(const char* k, uint64_t v) {  // 0: null
    key(k);
    out_ += v ? std::to_string(v) : "null";
  }
  void str(const char* k, std::string_view v) {
    key(k);
    append_json_string(out_, v);
  }
  void str_or_null(const char* k, std::string_view v) {
    if (v.empty()) {
      key(k);
      out_ += "null";
    } else {
      str(k, v);
    }
  }

 private:
  std::string& out_;
  bool first_ = true;
};

void write_event(std::string& out, const rt::TraceEvent& e);

void append_place(std::string& out, const rt::SourceLoc& loc) {
  Object o(out);
  o.str("file", loc.file_name());
  o.num("line", loc.line);
  o.num("column", loc.column);
}

}  // namespace

std::string to_json(const rt::TraceEvent& e) {
  std::string out;
  write_event(out, e);
  return out;
}

namespace {
void write_event(std::string& out, const rt::TraceEvent& e) {
  Object o(out);
  o.num("event", int64_t(e.seq));
  o.num("time_us", e.time_us);
  o.num("duration_us", e.duration_us);
  o.key("worker");
  out += e.worker >= 0 ? std::to_string(e.worker) : "null";
  o.id_or_null("actor", e.actor);
  if (e.actor) {
    // An actor's number is followed by its CREATE name, when it has one.
    if (!e.name.empty()) o.str("name", e.name);
    o.str("behavior", e.behavior);
    o.id_or_null("message_id", e.message_id);
    o.id_or_null("from", e.from);
    if (e.from && !e.from_name.empty()) o.str("from_name", e.from_name);
    if (e.after_ms >= 0) o.num("after_ms", e.after_ms);
    o.str("message", e.message);
  } else {
    o.key("statement");
    append_place(out, e.where);
  }
  // A line stays bounded like the values in it: an event that sends a
  // million messages wrote a 40 MB line (issue 34). Past kTraceListLimit
  // entries, the rest of `sent` is counted with its ids (consecutive: an
  // event's sends are numbered together), and the rest of `created` counted.
  const size_t sent_shown = std::min(e.sent.size(), kTraceListLimit);
  o.key("sent");
  out += '[';
  for (size_t i = 0; i < sent_shown; ++i) {
    if (i) out += ',';
    const rt::TraceSend& s = e.sent[i];
    Object m(out);
    m.num("id", int64_t(s.id));
    m.num("to", int64_t(s.to));
    if (!s.to_name.empty()) m.str("to_name", s.to_name);
    m.str("message", s.message);
    if (s.after_ms >= 0) m.num("after_ms", s.after_ms);
  }
  out += ']';
  if (sent_shown < e.sent.size()) {
    o.key("sent_omitted");
    Object more(out);
    more.num("count", int64_t(e.sent.size() - sent_shown));
    more.num("first_id", int64_t(e.sent[sent_shown].id));
    more.num("last_id", int64_t(e.sent.back().id));
  }
  const size_t created_shown = std::min(e.created.size(), kTraceListLimit);
  o.key("created");
  out += '[';
  for (size_t i = 0; i < created_shown; ++i) {
    if (i) out += ',';
    Object a(out);
    a.num("actor", int64_t(e.created[i].id));
    if (!e.created[i].name.empty()) a.str("name", e.created[i].name);
    a.str("behavior", e.created[i].behavior);
  }
  out += ']';
  if (created_shown < e.created.size()) o.num("created_omitted", int64_t(e.created.size() - created_shown));
  o.str_or_null("become", e.become);
  o.str("outcome", rt::outcome_name(e.outcome));
  if (e.outcome == rt::TraceOutcome::Failed) {
    o.key("error");
    Object err(out);
    err.str("message", e.error);
    if (e.where.file) {
      err.str("file", e.where.file_name());
      err.num("line", e.where.line);
      err.num("column", e.where.column);
    }
  }
}
}  // namespace

}  // namespace humus::trace
