// Structured traces (runtime/trace.hpp): what each event records, how the
// message ids tie a send to the event that handles it, the JSON form, and
// the sequence diagram drawn from them.
#include <doctest/doctest.h>

#include <map>
#include <mutex>
#include <set>

#include "interpreter/trace/diagram.hpp"
#include "interpreter/trace/json_trace.hpp"
#include "run_program.hpp"

using humus::rt::TraceEvent;
using humus::rt::TraceOutcome;
using humus::test::run_program;

namespace {

struct Collect final : humus::rt::TraceSink {
  std::vector<TraceEvent> events;
  void event(const TraceEvent& e) override { events.push_back(e); }
  // The message-events (not top-level statements) handled by actor `id`.
  std::vector<const TraceEvent*> at(uint64_t id) const {
    std::vector<const TraceEvent*> r;
    for (const auto& e : events)
      if (e.actor == id) r.push_back(&e);
    return r;
  }
};

}  // namespace

TEST_CASE("a trace records each event's message, sender, sends, creations and new behavior") {
  Collect t;
  auto r = run_program(R"(
    DEF greeter(count) AS \(cust, name).[
      SEND (#hello, name, add(count, 1)) TO cust
      BECOME greeter(add(count, 1))
    ]
    CREATE g WITH greeter(0)
    SEND (println, #world) TO g
    SEND (println, #humus) TO g
  )",
                       1, "test.hum", false, &t);
  REQUIRE(r.out == "#hello, #world, 1\n#hello, #humus, 2\n");
  // Three top-level statements did something (CREATE, two SENDs); DEF did not.
  REQUIRE(t.events.size() == 3 + 2 + 2);
  const TraceEvent& create = t.events[0];
  CHECK(create.actor == 0);
  CHECK(create.where.line == 6);
  REQUIRE(create.created.size() == 1);
  CHECK(create.created[0].id == 4);
  CHECK(create.created[0].behavior == "greeter(0)");
  CHECK(create.created[0].name == "g");  // the CREATE name, as errors say g@4
  const TraceEvent& send1 = t.events[1];
  REQUIRE(send1.sent.size() == 1);
  CHECK(send1.sent[0].to == 4);
  CHECK(send1.sent[0].message == "@1, #world");
  CHECK(send1.sent[0].to_name == "g");

  auto g = t.at(4);
  REQUIRE(g.size() == 2);
  CHECK(g[0]->name == "g");
  CHECK(g[0]->behavior == "greeter(0)");
  CHECK(g[0]->message == "@1, #world");
  CHECK(g[0]->message_id == send1.sent[0].id);
  CHECK(g[0]->from == 0);  // from the top level
  CHECK(g[0]->worker == 0);
  CHECK(g[0]->become == "greeter(1)");
  CHECK(g[0]->outcome == TraceOutcome::Committed);
  CHECK(g[1]->behavior == "greeter(1)");
  CHECK(g[1]->become == "greeter(2)");
  REQUIRE(g[0]->sent.size() == 1);
  CHECK(g[0]->sent[0].to == 1);

  auto p = t.at(1);  // println, told by the greeter
  REQUIRE(p.size() == 2);
  CHECK(p[0]->behavior == "println");
  CHECK(p[0]->from == 4);
  CHECK(p[0]->from_name == "g");
  CHECK(p[0]->name == "println");  // a built-in actor is named too
  CHECK(p[0]->message_id == g[0]->sent[0].id);
  CHECK(p[0]->message == "#hello, #world, 1");
  for (size_t i = 0; i < t.events.size(); ++i) CHECK(t.events[i].seq == i + 1);
}

TEST_CASE("failed and unhandled events are traced with their reason; delayed sends with their delay") {
  Collect t;
  auto r = run_program(R"(
    CREATE bad WITH \m.[
      SEND m TO println
      CREATE lost WITH \x.[]
      THROW (#oops, m)
    ]
    SEND 42 TO bad
    CREATE picky WITH \(#only, x).[ SEND x TO println ]
    SEND #other TO picky
    AFTER 5 SEND (#only, #late) TO picky
  )",
                       1, "test.hum", false, &t);
  CHECK(r.out == "#late\n");
  auto bad = t.at(4);
  REQUIRE(bad.size() == 1);
  CHECK(bad[0]->outcome == TraceOutcome::Failed);
  CHECK(bad[0]->error == "THROW #oops, 42");
  CHECK(bad[0]->where.line == 5);
  CHECK(bad[0]->where.column == 7);
  CHECK(bad[0]->sent.empty());         // it sent nothing (its SEND was dropped)
  CHECK(bad[0]->created.size() == 1);  // it did make an actor, which nothing can reach
  CHECK(bad[0]->become.empty());
  auto picky = t.at(5);  // made by the top level, before @4's event made one
  REQUIRE(picky.size() == 2);
  CHECK(picky[0]->outcome == TraceOutcome::Unhandled);
  CHECK(picky[0]->message == "#other");
  CHECK(picky[0]->after_ms == -1);
  CHECK(picky[1]->outcome == TraceOutcome::Committed);
  CHECK(picky[1]->after_ms == 5);
  CHECK(picky[1]->message == "#only, #late");
  // The AFTER statement's record has the delayed send, with the same id.
  bool found = false;
  for (const auto& e : t.events)
    for (const auto& s : e.sent)
      if (s.after_ms == 5) {
        found = true;
        CHECK(s.id == picky[1]->message_id);
        CHECK(e.actor == 0);
      }
  CHECK(found);
}

TEST_CASE("on several workers every message is handled once, by its target, after it was sent") {
  Collect t;
  // A token passed 1000 times round rings of 50 actors (each lap back at
  // `start` makes a new ring), and a fan-out of 200 sends.
  auto r = run_program(R"(
    DEF node(next) AS \k.[
      CASE k OF
      0 : [ SEND #done TO println ]
      _ : [ SEND sub(k, 1) TO next ]
      END
    ]
    DEF ring(n, first) AS CASE n OF
      0 : first
      _ : NEW node(ring(sub(n, 1), first))
    END
    CREATE start WITH \k.[ SEND k TO ring(49, SELF) ]
    SEND 1000 TO start
    DEF fan(n) AS CASE n OF 0 : [] _ : [ SEND n TO NEW \m.[] fan(sub(n, 1)) ] END
    fan(200)
  )",
                       4, "test.hum", false, &t);
  CHECK(r.out == "#done\n");
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> sent;  // id -> (event seq, target)
  std::set<uint64_t> handled;
  size_t events = 0;
  for (const auto& e : t.events) {
    if (e.actor) {
      ++events;
      REQUIRE(e.message_id != 0);
      auto it = sent.find(e.message_id);
      REQUIRE(it != sent.end());                   // sent by an event traced earlier
      CHECK(it->second.second == e.actor);         // to this actor
      CHECK(handled.insert(e.message_id).second);  // and handled once
    }
    for (const auto& s : e.sent) CHECK(sent.emplace(s.id, std::make_pair(e.seq, s.to)).second);
  }
  CHECK(events == r.stats.events);  // every event the runtime ran is in the trace
  CHECK(events > 1200);
}

TEST_CASE("the JSON form of an event") {
  TraceEvent e;
  e.seq = 3;
  e.time_us = 120;
  e.duration_us = 4;
  e.worker = 1;
  e.actor = 7;
  e.behavior = "counter(1)";
  e.message_id = 9;
  e.from = 5;
  e.message = "#say, \"hi\"\\\n";
  e.sent.push_back({10, 8, "#ok", -1, ""});
  e.sent.push_back({11, 8, "#later", 20, ""});
  e.created.push_back({12, "\\x.hum:3", ""});
  e.outcome = TraceOutcome::Failed;
  e.error = "THROW #no";
  std::string file = "x.hum";
  e.where = {&file, 3, 4};
  CHECK(humus::trace::to_json(e) ==
        R"j({"event":3,"time_us":120,"duration_us":4,"worker":1,"actor":7,"behavior":"counter(1)","message_id":9,)j"
        R"j("from":5,"message":"#say, \"hi\"\\\n","sent":[{"id":10,"to":8,"message":"#ok"},)j"
        R"j({"id":11,"to":8,"message":"#later","after_ms":20}],"created":[{"actor":12,"behavior":"\\x.hum:3"}],)j"
        R"j("become":null,"outcome":"failed","error":{"message":"THROW #no","file":"x.hum","line":3,"column":4}})j");
  TraceEvent top;
  top.seq = 1;
  top.where = {&file, 2, 1};
  top.sent.push_back({1, 4, std::string(1, '\x01'), -1, ""});
  CHECK(humus::trace::to_json(top) ==
        R"j({"event":1,"time_us":0,"duration_us":0,"worker":null,"actor":null,)j"
        R"j("statement":{"file":"x.hum","line":2,"column":1},"sent":[{"id":1,"to":4,"message":"\u0001"}],)j"
        R"j("created":[],"become":null,"outcome":"committed"})j");
  // Each actor's number with its CREATE name beside it, when it has one.
  TraceEvent named;
  named.seq = 4;
  named.actor = 5;
  named.name = "g";
  named.behavior = "greeter(0)";
  named.message_id = 2;
  named.from = 6;
  named.from_name = "boss";
  named.message = "#hi";
  named.sent.push_back({3, 1, "#hi", -1, "println"});
  named.created.push_back({7, "worker(1)", "ann"});
  named.created.push_back({8, "worker(2)", ""});
  CHECK(humus::trace::to_json(named) ==
        R"j({"event":4,"time_us":0,"duration_us":0,"worker":null,"actor":5,"name":"g","behavior":"greeter(0)",)j"
        R"j("message_id":2,"from":6,"from_name":"boss","message":"#hi",)j"
        R"j("sent":[{"id":3,"to":1,"to_name":"println","message":"#hi"}],)j"
        R"j("created":[{"actor":7,"name":"ann","behavior":"worker(1)"},{"actor":8,"behavior":"worker(2)"}],)j"
        R"j("become":null,"outcome":"committed"})j");
}

TEST_CASE("long messages are cut in a trace") {
  Collect t;
  run_program(
      "DEF big(n) AS CASE n OF 0 : NIL _ : (12345, big(sub(n, 1))) END\n"
      "SEND big(100000) TO NEW \\m.[]\n",
      1, "test.hum", false, &t);
  REQUIRE(t.events.size() == 2);
  const std::string& m = t.events[1].message;
  CHECK(m.size() <= humus::rt::kTraceTextLimit + 24);
  CHECK(m.ends_with(" more)"));
  CHECK(m.find(", ... (") != std::string::npos);
  CHECK(m.rfind("12345, 12345", 0) == 0);
}

TEST_CASE("the diagram draws lifelines in order of creation, arrows, and failures") {
  Collect t;
  humus::trace::Diagram d("demo.hum");
  humus::trace::Tee tee;
  tee.add(&t);
  tee.add(&d);
  run_program(R"(
    CREATE a WITH \m.[ SEND (#pong, m) TO NEW \x.[ THROW x ] ]
    SEND #ping TO a
  )",
              1, "test.hum", false, &tee);
  std::string svg = d.svg();
  CHECK(svg.rfind("<svg ", 0) == 0);
  CHECK(svg.find("demo.hum") != std::string::npos);
  CHECK(svg.find("2 events") != std::string::npos);
  CHECK(svg.find("1 failed") != std::string::npos);
  // Lifelines: the top level, then a@4 (by its CREATE name), then @5 (made by NEW in a@4's event).
  const size_t top = svg.find(">top level<"), a = svg.find(">a@4<"), b = svg.find(">@5<");
  REQUIRE(top != std::string::npos);
  REQUIRE(a != std::string::npos);
  REQUIRE(b != std::string::npos);
  CHECK(top < a);
  CHECK(a < b);
  CHECK(svg.find(">#ping<") != std::string::npos);
  CHECK(svg.find(">#pong, #ping<") != std::string::npos);
  CHECK(svg.find("class=\"failed\">\u2717 THROW #pong, #ping<") != std::string::npos);
}

TEST_CASE("a diagram of many events is a summary with the first ones drawn") {
  humus::trace::Diagram d("many");
  Collect t;
  humus::trace::Tee tee;
  tee.add(&d);
  run_program(R"(
    DEF count(n) AS \k.[ CASE k OF 0 : [] _ : [ SEND sub(k, 1) TO SELF ] END ]
    SEND 999 TO NEW count(0)
    DEF talk(n) AS CASE n OF 0 : [] _ : [ SEND n TO println talk(sub(n, 1)) ] END
    CREATE quiet WITH \m.[ talk(3) ]
    SEND #go TO quiet
  )",
              1, "test.hum", false, &tee);
  CHECK(d.events() == 1000 + 1 + 3);
  std::string svg = d.svg();
  CHECK(svg.find("1,004 events") != std::string::npos);
  CHECK(svg.find("Busiest actors") != std::string::npos);
  CHECK(svg.find("1,000  @4 count: 999 sent") != std::string::npos);  // the busiest, with its count
  CHECK(svg.find("999  @4 \u2192 @4") != std::string::npos);          // the busiest flow
  CHECK(svg.find("The first 60 events") != std::string::npos);
  // Only those rows are drawn, the repeated ones (@4 sending to itself)
  // compressed: rows drawn, and a line for the events between.
  size_t rows = 0, hidden = 0, gaps = 0;
  const std::string gap = "<title>\u22ee ";
  for (size_t at = svg.find("<title>"); at != std::string::npos; at = svg.find("<title>", at + 1)) {
    if (svg.compare(at, gap.size(), gap) == 0) {
      ++gaps;
      hidden += std::stoul(svg.substr(at + gap.size()));
    } else {
      ++rows;
    }
  }
  CHECK(gaps == 1);
  CHECK(rows == 3);  // from the top level, to itself, (the gap), to itself
  CHECK(rows + hidden == humus::trace::Diagram::kSummaryRows);
  CHECK(svg.find("\u22ee 57 more events like the one above (6\u201362)") != std::string::npos);
}

namespace {
int svg_width(const std::string& svg) { return std::stoi(svg.substr(svg.find("width=\"") + 7)); }
}  // namespace

TEST_CASE("a diagram is never wider than kMaxWidth: past the lanes that fit, actors share one per function") {
  humus::trace::Diagram d("wide");
  // 40 actors of two kinds, each told something at top level.
  run_program(R"(
    DEF ping(k) AS \m.[ SEND (m, k) TO println ]
    DEF pong(k) AS \m.[ SEND (k, m) TO println ]
    DEF spawn(n) AS CASE n OF 0 : [] _ : [
      SEND #hi TO NEW ping(n)
      SEND #ho TO NEW pong(n)
      spawn(sub(n, 1))
    ] END
    spawn(20)
  )",
              1, "test.hum", false, &d);
  const std::string svg = d.svg();
  CHECK(svg_width(svg) <= humus::trace::Diagram::kMaxWidth);
  CHECK(svg_width(svg) > humus::trace::Diagram::kMaxWidth - 200);  // as wide as it may be: many lanes
  size_t lanes = 0;
  for (size_t at = svg.find("class=\"lane"); at != std::string::npos; at = svg.find("class=\"lane", at + 1)) ++lanes;
  CHECK(lanes == 17);  // the top level, println, 13 actors, and two shared lanes
  CHECK(svg.find(">ping \u00d7") != std::string::npos);
  CHECK(svg.find(">pong \u00d7") != std::string::npos);
  // An arrow into a shared lane says which actor it reaches.
  CHECK(svg.find("top level \u2192 @") != std::string::npos);
}

TEST_CASE("a diagram names lifelines by CREATE name and steps down the headers one event makes") {
  humus::trace::Diagram d("made");
  run_program(R"(
    CREATE boss WITH \m.[
      CREATE ann WITH \x.[]
      CREATE bob WITH \x.[]
      SEND m TO ann
      SEND m TO bob
    ]
    SEND #go TO boss
  )",
              1, "test.hum", false, &d);
  const std::string svg = d.svg();
  REQUIRE(svg.find(">boss@4<") != std::string::npos);
  // ann's header, then bob's one step lower, so the arrow to bob passes below ann's.
  auto box_y = [&](const std::string& name) {
    const size_t text = svg.find(">" + name + "<");
    const size_t rect = svg.rfind("<rect ", text);
    return std::stoi(svg.substr(svg.find("y=\"", rect) + 3));
  };
  CHECK(box_y("bob@6") - box_y("ann@5") >= 38 / 2);
}
