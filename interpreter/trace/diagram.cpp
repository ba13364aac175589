#include "interpreter/trace/diagram.hpp"

#include <algorithm>
#include <set>

namespace humus::trace {

namespace {

// Geometry, in pixels. Text is monospace at 11 px, about 6.6 px a character.
constexpr int kLeft = 56;     // the gutter with event numbers
constexpr int kMinCol = 168;  // between two lifelines, at least
constexpr int kMaxCol = 330;
constexpr int kBoxW = 150, kBoxH = 38;
constexpr int kRow = 32;        // one event
constexpr int kCreateRow = 48;  // the extra height of a row that makes actors
constexpr double kCharW = 6.6;

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// At most n characters (UTF-8 aware), with an ellipsis when cut.
std::string fit(std::string_view s, size_t n) {
  size_t chars = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) continue;
    if (chars == n) break;
    ++chars;
  }
  if (i >= s.size()) return std::string(s);
  if (n == 0) return "";
  // Cut one character earlier for the ellipsis.
  size_t j = i;
  do --j;
  while (j > 0 && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80);
  return std::string(s.substr(0, j)) + "\u2026";
}

std::string thousands(uint64_t n) {
  std::string d = std::to_string(n), out;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

std::string actor_name(uint64_t id) { return id ? "@" + std::to_string(id) : "top level"; }

struct Svg {
  std::string body;
  void text(int x, int y, std::string_view s, const char* attrs = "") {
    body += "<text x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" " + attrs + ">" + escape(s) +
            "</text>\n";
  }
  void line(int x1, int y1, int x2, int y2, const char* attrs) {
    body += "<line x1=\"" + std::to_string(x1) + "\" y1=\"" + std::to_string(y1) + "\" x2=\"" + std::to_string(x2) +
            "\" y2=\"" + std::to_string(y2) + "\" " + attrs + "/>\n";
  }
  void rect(int x, int y, int w, int h, const char* attrs) {
    body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
            "\" height=\"" + std::to_string(h) + "\" " + attrs + "/>\n";
  }
};

// The tooltip of a row: the event's whole record, as text.
std::string tooltip(const rt::TraceEvent& e) {
  std::string t = "event " + std::to_string(e.seq) + " at " + std::to_string(e.time_us) + " \u00b5s";
  if (e.worker >= 0) t += " on worker " + std::to_string(e.worker);
  if (e.actor) {
    t += "\n" + actor_name(e.actor) + " " + e.behavior + " \u2190 " + e.message;
    t += "\nfrom " + (e.message_id ? actor_name(e.from) : std::string("before the trace"));
    if (e.after_ms >= 0) t += " after " + std::to_string(e.after_ms) + " ms";
  } else {
    t += "\ntop-level statement at " + e.where.file_name() + ":" + std::to_string(e.where.line);
  }
  for (const auto& s : e.sent)
    t += "\nsent to @" + std::to_string(s.to) + ": " + s.message +
         (s.after_ms >= 0 ? " (after " + std::to_string(s.after_ms) + " ms)" : "");
  for (const auto& c : e.created) t += "\ncreated @" + std::to_string(c.id) + " " + c.behavior;
  if (!e.become.empty()) t += "\nbecame " + e.become;
  t += std::string("\n") + rt::outcome_name(e.outcome);
  if (e.outcome == rt::TraceOutcome::Failed) t += ": " + e.error;
  return t;
}

// Draws the rows for `events` from y = top; returns the height used and the width needed.
std::pair<int, int> draw_sequence(Svg& svg, const std::vector<const rt::TraceEvent*>& events, int top) {
  // Lifelines: the top level (if anything came from it), then actors by id,
  // which is their order of creation.
  std::set<uint64_t> ids;
  std::map<uint64_t, std::string> behavior;
  std::map<uint64_t, size_t> created_at;  // actor -> row where it was made
  bool top_level = false;
  for (size_t r = 0; r < events.size(); ++r) {
    const rt::TraceEvent& e = *events[r];
    if (e.actor) {
      ids.insert(e.actor);
      behavior.emplace(e.actor, e.behavior);
      if (e.message_id && e.from)
        ids.insert(e.from);
      else
        top_level = true;
    } else {
      top_level = true;
    }
    for (const auto& c : e.created) {
      ids.insert(c.id);
      behavior[c.id] = c.behavior;
      if (e.actor) created_at.emplace(c.id, r);  // made at top level: there from the start
    }
  }
  // Wide enough for the longest message between neighbours, within bounds.
  size_t longest = 0;
  for (const auto* e : events) longest = std::max(longest, e->message.size() + (e->after_ms >= 0 ? 16 : 0));
  const int kCol = std::clamp(int(double(longest) * kCharW) + 24, kMinCol, kMaxCol);
  std::vector<uint64_t> lanes;
  if (top_level) lanes.push_back(0);
  lanes.insert(lanes.end(), ids.begin(), ids.end());
  std::map<uint64_t, int> x_of;
  for (size_t i = 0; i < lanes.size(); ++i) x_of[lanes[i]] = kLeft + kCol * int(i) + kCol / 2;

  auto header = [&](uint64_t id, int y) {
    const int x = x_of[id];
    svg.rect(x - kBoxW / 2, y, kBoxW, kBoxH,
             id ? "rx=\"5\" fill=\"#eef4fb\" stroke=\"#1e63a8\"" : "rx=\"5\" fill=\"#f2f2f2\" stroke=\"#666\"");
    svg.text(x, y + 15, actor_name(id), "text-anchor=\"middle\" font-weight=\"bold\"");
    if (id) svg.text(x, y + 30, fit(behavior[id], 22), "text-anchor=\"middle\" fill=\"#444\"");
  };

  // Row positions: a row that makes actors is taller, for their header boxes.
  std::vector<int> row_y(events.size() + 1);
  int y = top + kBoxH + 14;
  for (size_t r = 0; r < events.size(); ++r) {
    row_y[r] = y;
    bool makes = false;
    for (const auto& c : events[r]->created) makes |= created_at.count(c.id) && created_at[c.id] == r;
    y += kRow + (makes ? kCreateRow : 0);
  }
  row_y[events.size()] = y;
  const int bottom = y + 6;

  // Lifelines and the headers of actors there from the start.
  for (uint64_t id : lanes) {
    const int x = x_of[id];
    int from = top + kBoxH;
    if (auto it = created_at.find(id); it != created_at.end()) {
      from = row_y[it->second] + kRow + kBoxH - 4;
    } else {
      header(id, top);
    }
    svg.line(x, from, x, bottom, "stroke=\"#9aa7b4\" stroke-dasharray=\"4 4\"");
  }

  int width = kLeft + kCol * int(lanes.size());
  for (size_t r = 0; r < events.size(); ++r) {
    const rt::TraceEvent& e = *events[r];
    const int ry = row_y[r], ay = ry + 12;  // the arrow's height
    const int rx = x_of[e.actor];
    svg.body += "<g><title>" + escape(tooltip(e)) + "</title>\n";
    svg.text(kLeft - 8, ay + 4, std::to_string(e.seq), "text-anchor=\"end\" fill=\"#888\" font-size=\"10\"");
    // The message, as an arrow into the receiver.
    if (e.actor) {
      const bool delayed = e.after_ms >= 0;
      std::string label = (delayed ? "after " + std::to_string(e.after_ms) + " ms: " : "") + e.message;
      const char* stroke = delayed ? "stroke=\"#333\" stroke-dasharray=\"6 3\" marker-end=\"url(#arrow)\""
                                   : "stroke=\"#333\" marker-end=\"url(#arrow)\"";
      if (e.message_id && e.from == e.actor) {  // to itself: a loop on the right
        svg.body += "<path d=\"M" + std::to_string(rx + 5) + " " + std::to_string(ay - 8) + " h 26 v 14 h -20\" " +
                    "fill=\"none\" " + stroke + "/>\n";
        svg.text(rx + 36, ay, fit(label, 26), "fill=\"#222\"");
      } else {
        const int sx = x_of[e.message_id ? e.from : 0];
        const int tip = sx < rx ? rx - 6 : rx + 6;
        svg.line(sx, ay, tip, ay, stroke);
        const size_t room = size_t(std::max(8.0, (std::abs(rx - sx) - 12) / kCharW));
        svg.text((sx + rx) / 2, ay - 4, fit(label, room), "text-anchor=\"middle\" fill=\"#222\"");
      }
    }
    // The event itself, on the receiver's lifeline.
    const char* fill = e.outcome == rt::TraceOutcome::Failed      ? "fill=\"#e53935\" stroke=\"#b71c1c\""
                       : e.outcome == rt::TraceOutcome::Unhandled ? "fill=\"#ffb300\" stroke=\"#c68400\""
                                                                  : "fill=\"#90caf9\" stroke=\"#1e63a8\"";
    svg.rect(rx - 5, ay - 4, 10, 18, fill);
    if (e.outcome != rt::TraceOutcome::Committed) {
      std::string why = e.outcome == rt::TraceOutcome::Failed ? "\u2717 " + e.error : "unhandled";
      const size_t n = why.size() > 60 ? 60 : why.size();
      svg.text(rx + 10, ay + 12, fit(why, n),
               e.outcome == rt::TraceOutcome::Failed ? "fill=\"#b71c1c\" font-weight=\"bold\" class=\"failed\""
                                                     : "fill=\"#a66a00\" class=\"unhandled\"");
      width = std::max(width, rx + 16 + int(double(n) * kCharW));
    }
    // Actors it made: their headers, here, with a dashed arrow from it.
    int made = 0;
    for (const auto& c : e.created) {
      auto it = created_at.find(c.id);
      if (it == created_at.end() || it->second != r) continue;
      const int cy = ry + kRow - 4, cx = x_of[c.id];
      header(c.id, cy);
      const int edge = cx > rx ? cx - kBoxW / 2 : cx + kBoxW / 2;
      svg.line(rx, cy + kBoxH / 2 + made * 2, edge, cy + kBoxH / 2 + made * 2,
               "stroke=\"#1e63a8\" stroke-dasharray=\"3 3\" marker-end=\"url(#arrow-new)\"");
      ++made;
    }
    svg.body += "</g>\n";
  }
  return {bottom - top, width + 10};
}

}  // namespace

void Diagram::event(const rt::TraceEvent& e) {
  events_ += e.actor != 0;
  // Rows: message-events, and top-level statements that failed (the others'
  // messages are arrows from the top-level lifeline).
  if (kept_.size() <= kDetailed && (e.actor || e.outcome != rt::TraceOutcome::Committed)) kept_.push_back(e);
  if (e.outcome == rt::TraceOutcome::Failed) ++failed_;
  if (e.outcome == rt::TraceOutcome::Unhandled) ++unhandled_;
  created_ += e.created.size();
  messages_ += e.sent.size();
  for (const auto& c : e.created) actors_[c.id].behavior = c.behavior;
  if (e.actor) {
    ActorStats& a = actors_[e.actor];
    if (a.behavior.empty()) a.behavior = e.behavior;
    ++a.handled;
    a.failed += e.outcome == rt::TraceOutcome::Failed;
    a.unhandled += e.outcome == rt::TraceOutcome::Unhandled;
    if (e.outcome == rt::TraceOutcome::Committed) a.sent += e.sent.size();
  }
  if (e.outcome == rt::TraceOutcome::Committed)
    for (const auto& s : e.sent) ++flows_[{e.actor, s.to}];
}

std::string Diagram::svg() const {
  const bool summary = kept_.size() > kDetailed;
  std::vector<const rt::TraceEvent*> rows;
  for (const auto& e : kept_) {
    if (summary && rows.size() == kSummaryRows) break;
    rows.push_back(&e);
  }

  Svg svg;
  int y = 24;
  svg.text(12, y, title_.empty() ? "Humus run" : title_, "font-size=\"14\" font-weight=\"bold\"");
  y += 20;
  auto count = [](uint64_t n, const char* one, const char* many) { return thousands(n) + " " + (n == 1 ? one : many); };
  std::string counts = count(events_, "event", "events") + " \u00b7 " + count(messages_, "message", "messages") +
                       " sent \u00b7 " + count(created_, "actor", "actors") + " created";
  if (failed_) counts += " \u00b7 " + thousands(failed_) + " failed";
  if (unhandled_) counts += " \u00b7 " + thousands(unhandled_) + " unhandled";
  svg.text(12, y, counts, "fill=\"#444\" class=\"counts\"");
  int width = 12 + int(double(counts.size()) * kCharW);

  if (summary) {
    // The busiest actors and flows, as bars.
    auto bars = [&](const std::string& heading, std::vector<std::pair<std::string, uint64_t>> items) {
      y += 30;
      svg.text(12, y, heading, "font-weight=\"bold\"");
      const uint64_t most = items.empty() ? 1 : std::max<uint64_t>(1, items.front().second);
      for (const auto& [label, n] : items) {
        y += 20;
        const int w = std::max(1, int(300.0 * double(n) / double(most)));
        svg.rect(12, y - 11, w, 14, "fill=\"#90caf9\"");
        svg.text(320, y, thousands(n) + "  " + label, "fill=\"#222\"");
      }
      width = std::max(width, 760);
    };
    std::vector<std::pair<uint64_t, const ActorStats*>> by_events;
    for (const auto& [id, a] : actors_)
      if (a.handled) by_events.emplace_back(id, &a);
    std::stable_sort(by_events.begin(), by_events.end(),
                     [](const auto& a, const auto& b) { return a.second->handled > b.second->handled; });
    std::vector<std::pair<std::string, uint64_t>> talkers;
    for (size_t i = 0; i < by_events.size() && i < 10; ++i) {
      const auto& [id, a] = by_events[i];
      std::string label = actor_name(id) + " " + fit(a->behavior, 24) + ": " + thousands(a->sent) + " sent";
      if (a->failed) label += ", " + thousands(a->failed) + " failed";
      if (a->unhandled) label += ", " + thousands(a->unhandled) + " unhandled";
      talkers.emplace_back(label, a->handled);
    }
    bars("Busiest actors (events handled)", talkers);
    std::vector<std::pair<std::pair<uint64_t, uint64_t>, uint64_t>> flows(flows_.begin(), flows_.end());
    std::stable_sort(flows.begin(), flows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::vector<std::pair<std::string, uint64_t>> busiest;
    for (size_t i = 0; i < flows.size() && i < 10; ++i)
      busiest.emplace_back(actor_name(flows[i].first.first) + " \u2192 " + actor_name(flows[i].first.second),
                           flows[i].second);
    bars("Busiest flows (messages)", busiest);
    y += 34;
    svg.text(12, y, "The first " + std::to_string(rows.size()) + " events:", "font-weight=\"bold\"");
  }

  auto [height, seq_width] = draw_sequence(svg, rows, y + 14);
  width = std::max(width, seq_width);
  const int total = y + 14 + height + 10;

  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) + "\" height=\"" +
                    std::to_string(total) + "\" viewBox=\"0 0 " + std::to_string(width) + " " + std::to_string(total) +
                    "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"11\">\n"
                    "<defs>"
                    "<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
                    "markerHeight=\"7\" orient=\"auto\"><path d=\"M0 0 L10 5 L0 10 z\" fill=\"#333\"/></marker>"
                    "<marker id=\"arrow-new\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" "
                    "markerHeight=\"7\" orient=\"auto\"><path d=\"M0 0 L10 5 L0 10\" fill=\"none\" "
                    "stroke=\"#1e63a8\"/></marker>"
                    "</defs>\n"
                    "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += svg.body;
  out += "</svg>\n";
  return out;
}

}  // namespace humus::trace
