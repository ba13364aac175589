#include "interpreter/trace/diagram.hpp"

#include <algorithm>
#include <limits>

namespace humus::trace {

namespace {

// Geometry, in pixels. Text is monospace at 11 px, about 6.6 px a character.
// However many actors a run has, the picture is at most kMaxWidth wide: a
// lifeline is at least kMinCol wide, so at most kMaxLanes fit, and beyond
// that the least busy actors share lanes (group_lanes).
constexpr int kLeft = 56;     // the gutter with event numbers
constexpr int kRight = 12;    // the margin on the right
constexpr int kMinCol = 112;  // between two lifelines, at least
constexpr int kMaxCol = 330;
constexpr int kBoxW = 150, kBoxH = 38;
constexpr int kRow = 32;               // one event
constexpr int kStair = kBoxH / 2 + 5;  // headers made by one event step down by this, so no arrow crosses a box
constexpr int kJoin = 20;              // a row that adds actors to a shared lane: one arrow per lane
constexpr int kGap = 28;               // a stretch of repeated events, drawn as one line
constexpr double kCharW = 6.6;
constexpr size_t kMaxLanes = (Diagram::kMaxWidth - kLeft - kRight) / kMinCol;
constexpr size_t kMaxGroups = 3;   // shared lanes, at most
constexpr size_t kMinRepeats = 4;  // a pattern of rows seen this often in a row is compressed

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

// How many characters fit in `px` pixels (none when there is no room).
size_t chars_in(int px) { return px <= 0 ? 0 : size_t(double(px) / kCharW); }

std::string thousands(uint64_t n) {
  std::string d = std::to_string(n), out;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

// The function a behavior runs: `link` for link(3, @5), the place of an anonymous lambda.
std::string family(const std::string& behavior) { return behavior.substr(0, behavior.find('(')); }

// A behavior in a lifeline's header: an anonymous lambda by its file's
// name and place (\team.hum:10:15), not its whole path (the tooltip has it).
std::string shown_behavior(const std::string& behavior) {
  if (behavior.empty() || behavior[0] != '\\') return behavior;
  const size_t slash = behavior.rfind('/');
  return slash == std::string::npos ? behavior : "\\" + behavior.substr(slash + 1);
}

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

// An actor of the drawn rows.
struct ActorInfo {
  std::string name, behavior;  // its CREATE name; its behavior when first seen
  size_t activity = 0;         // rows in which it receives or sends
  long made_row = -1;          // the row of the event that made it; -1: there from the start
};

// The tooltip of a row: the event's whole record, as text.
std::string tooltip(const rt::TraceEvent& e) {
  std::string t = "event " + std::to_string(e.seq) + " at " + std::to_string(e.time_us) + " \u00b5s";
  if (e.worker >= 0) t += " on worker " + std::to_string(e.worker);
  if (e.actor) {
    t += "\n" + rt::actor_label(e.actor, e.name) + " " + e.behavior + " \u2190 " + e.message;
    t += "\nfrom " + (e.message_id ? rt::actor_label(e.from, e.from_name) : std::string("before the trace"));
    if (e.after_ms >= 0) t += " after " + std::to_string(e.after_ms) + " ms";
  } else {
    t += "\ntop-level statement at " + e.where.file_name() + ":" + std::to_string(e.where.line);
  }
  for (const auto& s : e.sent)
    t += "\nsent to " + rt::actor_label(s.to, s.to_name) + ": " + s.message +
         (s.after_ms >= 0 ? " (after " + std::to_string(s.after_ms) + " ms)" : "");
  for (const auto& c : e.created) t += "\ncreated " + rt::actor_label(c.id, c.name) + " " + c.behavior;
  if (!e.become.empty()) t += "\nbecame " + e.become;
  t += std::string("\n") + rt::outcome_name(e.outcome);
  if (e.outcome == rt::TraceOutcome::Failed) t += ": " + e.error;
  return t;
}

// A lifeline: one actor, or several that share it (the top level is actor 0).
struct Lane {
  std::vector<uint64_t> members;  // by number
  std::string title, subtitle;
  bool shared = false;
  long header_row = -1;  // the row whose event made it, where its header is drawn; -1: at the top
};

// Which actors get a lifeline of their own: all of them while they fit in
// kMaxLanes; otherwise the busiest do, and the others share up to
// kMaxGroups lanes, one per function they run (`link ×48`), the least
// common functions together (`12 others`). Lanes are in order of their
// first actor's number, which is the order of creation.
std::vector<Lane> group_lanes(bool top_level, const std::map<uint64_t, ActorInfo>& actors) {
  std::vector<uint64_t> ranked;
  for (const auto& [id, a] : actors) ranked.push_back(id);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](uint64_t a, uint64_t b) { return actors.at(a).activity > actors.at(b).activity; });
  const size_t slots = kMaxLanes - (top_level ? 1 : 0);
  size_t keep = ranked.size();
  std::vector<std::vector<uint64_t>> groups;
  if (ranked.size() > slots) {
    for (keep = slots - 1;; --keep) {
      std::map<std::string, std::vector<uint64_t>> by_family;
      for (size_t i = keep; i < ranked.size(); ++i)
        by_family[family(actors.at(ranked[i]).behavior)].push_back(ranked[i]);
      if (keep + std::min(by_family.size(), kMaxGroups) > slots && keep > 0) continue;
      for (auto& [f, ids] : by_family) groups.push_back(std::move(ids));
      std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
      if (groups.size() > kMaxGroups) {  // the rarest functions share the last lane
        for (size_t g = kMaxGroups; g < groups.size(); ++g)
          groups[kMaxGroups - 1].insert(groups[kMaxGroups - 1].end(), groups[g].begin(), groups[g].end());
        groups.resize(kMaxGroups);
      }
      break;
    }
  }
  std::vector<Lane> lanes;
  if (top_level) lanes.push_back({{0}, "top level", "", false, -1});
  for (size_t i = 0; i < keep; ++i) {
    const ActorInfo& a = actors.at(ranked[i]);
    lanes.push_back({{ranked[i]}, rt::actor_label(ranked[i], a.name), shown_behavior(a.behavior), false, a.made_row});
  }
  for (auto& ids : groups) {
    std::sort(ids.begin(), ids.end());
    Lane l;
    l.shared = ids.size() > 1;
    std::string fam = family(actors.at(ids[0]).behavior);
    bool one_family = true, from_start = false;
    long first_made = std::numeric_limits<long>::max();
    for (uint64_t id : ids) {
      one_family &= family(actors.at(id).behavior) == fam;
      const long made = actors.at(id).made_row;
      if (made < 0)
        from_start = true;
      else
        first_made = std::min(first_made, made);
    }
    // Its header goes where its first actor was made, or at the top.
    l.header_row = from_start ? -1 : first_made;
    if (!l.shared) {
      l.title = rt::actor_label(ids[0], actors.at(ids[0]).name);
      l.subtitle = shown_behavior(actors.at(ids[0]).behavior);
    } else {
      l.title = one_family ? fam + " \u00d7" + std::to_string(ids.size()) : std::to_string(ids.size()) + " others";
      l.subtitle = "@" + std::to_string(ids.front()) + "\u2013@" + std::to_string(ids.back());
    }
    l.members = std::move(ids);
    lanes.push_back(std::move(l));
  }
  std::stable_sort(lanes.begin(), lanes.end(),
                   [](const Lane& a, const Lane& b) { return a.members[0] < b.members[0]; });
  return lanes;
}

// A drawn row: one event, on its lanes.
struct Row {
  const rt::TraceEvent* e;
  size_t lane;                  // the receiver's (the top level's, for a failed statement)
  long from = -1;               // the sender's lane; -1: no arrow (a top-level statement)
  std::vector<size_t> headers;  // lanes whose header is drawn in this row (their first actor made here)
  struct Join {
    size_t lane, count;  // a shared lane drawn already, and how many actors this event made into it
    std::string first;   // the first of them, as `new @20` names it
    bool operator==(const Join& o) const { return lane == o.lane && count == o.count; }
  };
  std::vector<Join> joins;
  // Rows alike in this are drawn alike: a run of them is compressed.
  bool same_shape(const Row& o) const {
    return headers.empty() && o.headers.empty() && lane == o.lane && from == o.from && joins == o.joins &&
           e->outcome == o.e->outcome && (e->after_ms >= 0) == (o.e->after_ms >= 0) &&
           (e->from == e->actor) == (o.e->from == o.e->actor);
  }
};

// What is drawn, top to bottom: rows, and stretches of rows repeating a
// pattern, compressed to one line between the first and the last repetition.
struct Item {
  size_t row;          // the row, or the first hidden one
  size_t hidden = 0;   // >0: a compressed stretch of this many rows
  size_t pattern = 0;  // the number of rows that repeat in it
};

std::vector<Item> compress(const std::vector<Row>& rows) {
  std::vector<Item> items;
  const size_t n = rows.size();
  auto same = [&](size_t a, size_t b, size_t p) {
    for (size_t k = 0; k < p; ++k)
      if (!rows[a + k].same_shape(rows[b + k])) return false;
    return true;
  };
  for (size_t i = 0; i < n;) {
    size_t best_p = 0, best_m = 0;
    for (size_t p = 1; p <= 3 && i + p <= n; ++p) {
      if (!same(i, i, p)) continue;  // a row with headers is never compressed
      size_t m = 1;
      while (i + (m + 1) * p <= n && same(i, i + m * p, p)) ++m;
      if (m >= kMinRepeats && m * p > best_m * best_p) best_p = p, best_m = m;
    }
    if (!best_p) {
      items.push_back({i++});
      continue;
    }
    for (size_t k = 0; k < best_p; ++k) items.push_back({i + k});
    items.push_back({i + best_p, (best_m - 2) * best_p, best_p});
    for (size_t k = (best_m - 1) * best_p; k < best_m * best_p; ++k) items.push_back({i + k});
    i += best_m * best_p;
  }
  return items;
}

// Draws the rows for `events` from y = top; returns the height used and the width needed.
std::pair<int, int> draw_sequence(Svg& svg, const std::vector<const rt::TraceEvent*>& events, int top) {
  // The actors, the top level (if anything came from it), and which row made which actor.
  std::map<uint64_t, ActorInfo> actors;
  bool top_level = false;
  auto seen = [&](uint64_t id, const std::string& name, const std::string& behavior) -> ActorInfo& {
    ActorInfo& a = actors[id];
    if (a.name.empty()) a.name = name;
    if (a.behavior.empty()) a.behavior = behavior;
    return a;
  };
  for (size_t r = 0; r < events.size(); ++r) {
    const rt::TraceEvent& e = *events[r];
    if (e.actor) {
      ++seen(e.actor, e.name, e.behavior).activity;
      if (e.message_id && e.from)
        ++seen(e.from, e.from_name, "").activity;
      else
        top_level = true;
    } else {
      top_level = true;
    }
    for (const auto& c : e.created) {
      ActorInfo& a = seen(c.id, c.name, c.behavior);
      if (e.actor && a.made_row < 0) a.made_row = long(r);  // made at top level: there from the start
    }
  }
  const std::vector<Lane> lanes = group_lanes(top_level, actors);
  std::map<uint64_t, size_t> lane_of;
  for (size_t i = 0; i < lanes.size(); ++i)
    for (uint64_t id : lanes[i].members) lane_of[id] = i;

  // Wide enough for the longest message between neighbours and the longest
  // header (a box is at most kBoxW), within bounds, and narrower when many
  // lanes must fit.
  size_t longest = 0, widest = 0;
  for (const auto* e : events) longest = std::max(longest, e->message.size() + (e->after_ms >= 0 ? 16 : 0));
  for (const Lane& l : lanes) widest = std::max({widest, l.title.size(), l.subtitle.size()});
  int col =
      std::clamp(std::max(int(double(longest) * kCharW) + 24, std::min(int(double(widest) * kCharW) + 24, kBoxW + 16)),
                 kMinCol, kMaxCol);
  col = std::min(col, (Diagram::kMaxWidth - kLeft - kRight) / std::max<int>(1, int(lanes.size())));
  const int box_w = std::min(kBoxW, col - 16);
  const size_t box_chars = chars_in(box_w - 8);
  const int right_edge = Diagram::kMaxWidth - kRight;  // texts never go beyond it
  auto x_of = [&](size_t lane) { return kLeft + col * int(lane) + col / 2; };

  std::vector<Row> rows;
  for (size_t r = 0; r < events.size(); ++r) {
    const rt::TraceEvent& e = *events[r];
    Row row{&e, lane_of[e.actor], -1, {}, {}};
    if (e.actor) row.from = long(lane_of[e.message_id ? e.from : 0]);
    for (const auto& c : e.created) {
      if (actors[c.id].made_row != long(r)) continue;
      const size_t l = lane_of[c.id];
      if (lanes[l].header_row == long(r)) {
        if (std::find(row.headers.begin(), row.headers.end(), l) == row.headers.end()) row.headers.push_back(l);
      } else {
        auto it = std::find_if(row.joins.begin(), row.joins.end(), [&](const auto& j) { return j.lane == l; });
        if (it == row.joins.end())
          row.joins.push_back({l, 1, rt::actor_label(c.id, c.name)});
        else
          ++it->count;
      }
    }
    rows.push_back(std::move(row));
  }
  const std::vector<Item> items = compress(rows);

  // Headers made in one row: on each side of the maker, the nearest first,
  // each a step lower than the one before, so that the arrow to a farther
  // one passes below the nearer ones.
  auto header_offsets = [&](const Row& row) {
    std::vector<std::pair<size_t, int>> at;  // (lane, y offset)
    std::vector<size_t> left, right;
    for (size_t l : row.headers) (l < row.lane ? left : right).push_back(l);
    std::sort(left.rbegin(), left.rend());
    std::sort(right.begin(), right.end());
    for (size_t i = 0; i < left.size(); ++i) at.push_back({left[i], int(i) * kStair});
    for (size_t i = 0; i < right.size(); ++i) at.push_back({right[i], int(i) * kStair});
    return at;
  };
  auto headers_height = [&](const Row& row) {
    int h = 0;
    for (const auto& [l, dy] : header_offsets(row)) h = std::max(h, dy + kBoxH + 8);
    return h;
  };

  // Row positions: a row that makes actors is taller, for their headers.
  std::vector<int> item_y(items.size() + 1);
  std::map<size_t, int> header_y;  // lane -> top of its header box
  int y = top + kBoxH + 14;
  for (size_t i = 0; i < items.size(); ++i) {
    item_y[i] = y;
    if (items[i].hidden) {
      y += kGap;
      continue;
    }
    const Row& row = rows[items[i].row];
    for (const auto& [l, dy] : header_offsets(row)) header_y[l] = y + kRow + dy;
    y += kRow + headers_height(row) + kJoin * int(row.joins.size());
  }
  const int bottom = y + 6;

  auto header = [&](size_t l, int hy) {
    const int x = x_of(l);
    const bool is_top = lanes[l].members[0] == 0;
    svg.rect(x - box_w / 2, hy, box_w, kBoxH,
             is_top ? "class=\"lane\" rx=\"5\" fill=\"#f2f2f2\" stroke=\"#666\""
             : lanes[l].shared
                 ? "class=\"lane shared\" rx=\"5\" fill=\"#f3eefb\" stroke=\"#6a3fa8\" stroke-dasharray=\"5 2\""
                 : "class=\"lane\" rx=\"5\" fill=\"#eef4fb\" stroke=\"#1e63a8\"");
    svg.text(x, hy + 15, fit(lanes[l].title, box_chars), "class=\"name\" text-anchor=\"middle\" font-weight=\"bold\"");
    if (!lanes[l].subtitle.empty())
      svg.text(x, hy + 30, fit(lanes[l].subtitle, box_chars), "text-anchor=\"middle\" fill=\"#444\"");
  };

  // Lifelines, and the headers of the lanes there from the start.
  for (size_t l = 0; l < lanes.size(); ++l) {
    int from = top + kBoxH;
    if (auto it = header_y.find(l); it != header_y.end() && lanes[l].header_row >= 0)
      from = it->second + kBoxH;
    else
      header(l, top);
    svg.line(x_of(l), from, x_of(l), bottom, "stroke=\"#9aa7b4\" stroke-dasharray=\"4 4\"");
  }

  int width = kLeft + col * int(lanes.size());
  // What the arrow of an event between lanes says: the message, and which
  // actors of a shared lane sent or received it.
  auto label_of = [&](const Row& row) {
    const rt::TraceEvent& e = *row.e;
    std::string label = (e.after_ms >= 0 ? "after " + std::to_string(e.after_ms) + " ms: " : "") + e.message;
    const bool shared = lanes[row.lane].shared || (row.from >= 0 && lanes[size_t(row.from)].shared);
    if (shared)
      label = rt::actor_label(e.message_id ? e.from : 0, e.message_id ? e.from_name : "") + " \u2192 " +
              rt::actor_label(e.actor, e.name) + ": " + label;
    return label;
  };
  for (size_t i = 0; i < items.size(); ++i) {
    const int ry = item_y[i];
    if (items[i].hidden) {
      // A compressed stretch: what it hides, on one line across the lifelines.
      const rt::TraceEvent& a = *rows[items[i].row].e;
      const rt::TraceEvent& b = *rows[items[i].row + items[i].hidden - 1].e;
      const std::string what = "\u22ee " + thousands(items[i].hidden) + " more events like the " +
                               (items[i].pattern == 1 ? std::string("one") : std::to_string(items[i].pattern)) +
                               " above (" + std::to_string(a.seq) + "\u2013" + std::to_string(b.seq) + ")";
      svg.body += "<g class=\"gap\"><title>" + escape(what) + "</title>\n";
      svg.rect(kLeft, ry + 4, width - kLeft, kGap - 8, "fill=\"#f7f7f7\"");
      svg.text(kLeft + 8, ry + kGap / 2 + 4, fit(what, chars_in(width - kLeft - 16)),
               "fill=\"#666\" font-style=\"italic\"");
      svg.body += "</g>\n";
      continue;
    }
    const Row& row = rows[items[i].row];
    const rt::TraceEvent& e = *row.e;
    const int ay = ry + 12;  // the arrow's height
    const int rx = x_of(row.lane);
    svg.body += "<g><title>" + escape(tooltip(e)) + "</title>\n";
    svg.text(kLeft - 8, ay + 4, std::to_string(e.seq), "text-anchor=\"end\" fill=\"#888\" font-size=\"10\"");
    // The message, as an arrow into the receiver.
    if (row.from >= 0) {
      const bool delayed = e.after_ms >= 0;
      const std::string label = label_of(row);
      const char* stroke = delayed ? "class=\"msg\" stroke=\"#333\" stroke-dasharray=\"6 3\" marker-end=\"url(#arrow)\""
                                   : "class=\"msg\" stroke=\"#333\" marker-end=\"url(#arrow)\"";
      if (size_t(row.from) == row.lane) {  // to itself, or within a shared lane: a loop on the right
        svg.body += "<path d=\"M" + std::to_string(rx + 5) + " " + std::to_string(ay - 8) + " h 26 v 14 h -20\" " +
                    "fill=\"none\" " + stroke + "/>\n";
        // Up to the next lifeline, or the edge of the picture; on the left
        // (from the lifeline before) when that has more room, as the last
        // lane of a picture at its widest has little on the right.
        const int right = (row.lane + 1 < lanes.size() ? x_of(row.lane + 1) - 6 : right_edge) - (rx + 36);
        const int left = row.lane > 0 ? (rx - 10) - (x_of(row.lane - 1) + 6) : 0;
        if (right >= int(14 * kCharW) || right >= left) {
          const std::string shown = fit(label, chars_in(right));
          svg.text(rx + 36, ay, shown, "fill=\"#222\"");
          width = std::max(width, rx + 36 + int(double(shown.size()) * kCharW));
        } else {
          svg.text(rx - 10, ay, fit(label, chars_in(left)), "text-anchor=\"end\" fill=\"#222\"");
        }
      } else {
        const int sx = x_of(size_t(row.from));
        const int tip = sx < rx ? rx - 6 : rx + 6;
        svg.line(sx, ay, tip, ay, stroke);
        svg.text((sx + rx) / 2, ay - 4, fit(label, std::max<size_t>(8, chars_in(std::abs(rx - sx) - 12))),
                 "text-anchor=\"middle\" fill=\"#222\"");
      }
    }
    // The event itself, on the receiver's lifeline.
    const char* fill = e.outcome == rt::TraceOutcome::Failed ? "class=\"event\" fill=\"#e53935\" stroke=\"#b71c1c\""
                       : e.outcome == rt::TraceOutcome::Unhandled
                           ? "class=\"event\" fill=\"#ffb300\" stroke=\"#c68400\""
                           : "class=\"event\" fill=\"#90caf9\" stroke=\"#1e63a8\"";
    svg.rect(rx - 5, ay - 4, 10, 18, fill);
    if (e.outcome != rt::TraceOutcome::Committed) {
      std::string why = e.outcome == rt::TraceOutcome::Failed ? "\u2717 " + e.error : "unhandled";
      const std::string shown = fit(why, std::min<size_t>(60, chars_in(right_edge - (rx + 10))));
      svg.text(rx + 10, ay + 14, shown,
               e.outcome == rt::TraceOutcome::Failed ? "fill=\"#b71c1c\" font-weight=\"bold\" class=\"failed\""
                                                     : "fill=\"#a66a00\" class=\"unhandled\"");
      width = std::max(width, rx + 16 + int(double(shown.size()) * kCharW));
    }
    // Actors it made: their headers, here, each with a dashed arrow from it.
    const int area = ry + kRow;
    for (const auto& [l, dy] : header_offsets(row)) {
      const int cy = area + dy, cx = x_of(l);
      header(l, cy);
      const int edge = cx > rx ? cx - box_w / 2 : cx + box_w / 2;
      svg.line(rx, cy + kBoxH / 2, edge, cy + kBoxH / 2,
               "class=\"new\" stroke=\"#1e63a8\" stroke-dasharray=\"3 3\" marker-end=\"url(#arrow-new)\"");
    }
    // Actors it made into a shared lane already drawn: an arrow to its lifeline.
    int jy = area + headers_height(row) + 8;
    for (const auto& [l, n, first] : row.joins) {
      const int cx = x_of(l);
      const std::string what = n == 1 ? "new " + first : "new \u00d7" + std::to_string(n);
      if (l == row.lane) {
        svg.body += "<path d=\"M" + std::to_string(rx + 5) + " " + std::to_string(jy - 5) + " h 18 v 10 h -12\" " +
                    "class=\"new\" fill=\"none\" stroke=\"#6a3fa8\" stroke-dasharray=\"3 3\" "
                    "marker-end=\"url(#arrow-new)\"/>\n";
        svg.text(rx + 28, jy + 4, what, "fill=\"#6a3fa8\" font-size=\"10\"");
        width = std::max(width, rx + 28 + int(double(what.size()) * 6.0));
      } else {
        svg.line(rx, jy, cx > rx ? cx - 4 : cx + 4, jy,
                 "class=\"new\" stroke=\"#6a3fa8\" stroke-dasharray=\"3 3\" marker-end=\"url(#arrow-new)\"");
        svg.text((rx + cx) / 2, jy - 3, what, "text-anchor=\"middle\" fill=\"#6a3fa8\" font-size=\"10\"");
      }
      jy += kJoin;
    }
    svg.body += "</g>\n";
  }
  return {bottom - top, std::min(width + kRight, Diagram::kMaxWidth)};
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
  for (const auto& c : e.created) {
    actors_[c.id].behavior = c.behavior;
    actors_[c.id].name = c.name;
  }
  if (e.actor) {
    ActorStats& a = actors_[e.actor];
    if (a.behavior.empty()) a.behavior = e.behavior;
    if (a.name.empty()) a.name = e.name;
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
  svg.text(12, y, fit(title_.empty() ? "Humus run" : title_, chars_in(kMaxWidth - 24) * 11 / 14),
           "font-size=\"14\" font-weight=\"bold\"");
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
      std::string label =
          rt::actor_label(id, a->name) + " " + fit(a->behavior, 24) + ": " + thousands(a->sent) + " sent";
      if (a->failed) label += ", " + thousands(a->failed) + " failed";
      if (a->unhandled) label += ", " + thousands(a->unhandled) + " unhandled";
      talkers.emplace_back(label, a->handled);
    }
    bars("Busiest actors (events handled)", talkers);
    std::vector<std::pair<std::pair<uint64_t, uint64_t>, uint64_t>> flows(flows_.begin(), flows_.end());
    std::stable_sort(flows.begin(), flows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    auto label = [&](uint64_t id) {
      auto it = actors_.find(id);
      return rt::actor_label(id, it == actors_.end() ? std::string() : it->second.name);
    };
    std::vector<std::pair<std::string, uint64_t>> busiest;
    for (size_t i = 0; i < flows.size() && i < 10; ++i)
      busiest.emplace_back(label(flows[i].first.first) + " \u2192 " + label(flows[i].first.second), flows[i].second);
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
