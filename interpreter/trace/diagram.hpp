// A sequence diagram of a traced run, drawn as SVG (`humus --diagram`, and
// the playground's picture: both use this class, so both draw the same).
//
// Actors are lifelines, left to right in order of creation (a top-level
// lifeline first, for what the script's statements sent), headed by their
// CREATE name and number (g@4) and behavior; each message-event is a row,
// with the message as an arrow from its sender's lifeline to its receiver's;
// an actor made during the run starts where its creator made it; failed and
// unhandled events are marked (red, amber) with the reason. Every row has a
// tooltip with the event's full record.
//
// The picture is never wider than kMaxWidth: past the lifelines that fit,
// the least busy actors share a lane per function they run (`link ×48`),
// and a pattern of rows repeated four times or more is drawn once, then a
// line saying how many events it stands for, then its last repetition.
//
// A run of more than kDetailed events would be unreadable drawn whole: the
// picture then summarises it (counts, the busiest actors and flows) and
// draws only its first kSummaryRows events. Only those are kept, so a
// traced run of millions of events costs the diagram little memory.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "runtime/trace.hpp"

namespace humus::trace {

class Diagram final : public rt::TraceSink {
 public:
  static constexpr size_t kDetailed = 300;
  static constexpr size_t kSummaryRows = 60;
  static constexpr int kMaxWidth = 2000;  // pixels, whatever the number of actors

  // `title` heads the picture (the script's name).
  explicit Diagram(std::string title) : title_(std::move(title)) {}
  void event(const rt::TraceEvent& e) override;
  // The picture of the events so far.
  std::string svg() const;
  uint64_t events() const { return events_; }

 private:
  struct ActorStats {
    std::string behavior, name;
    uint64_t handled = 0, sent = 0, failed = 0, unhandled = 0;
  };

  std::string title_;
  std::vector<rt::TraceEvent> kept_;  // the first kDetailed + 1 events
  std::map<uint64_t, ActorStats> actors_;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> flows_;  // (sender, receiver) -> messages
  uint64_t events_ = 0, messages_ = 0, failed_ = 0, unhandled_ = 0, created_ = 0;
};

}  // namespace humus::trace
