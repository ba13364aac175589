// The `cluster` actor. Its protocol is fixed, so programs stay portable
// between releases and between a single process and a cluster:
//
//   (cust, #publish, name, actor)   -> (#published, name)
//   (cust, #lookup, name)           -> the actor, once published anywhere
//   (cust, #monitor, actor)         -> (#down, actor) once, when its node goes
//   (cust, #nodes)                  -> the names of the nodes up, as symbols
//   (cust, #topic, name)            -> the topic's actor
//   #leave                          -> none; the process ends once idle
//
// A name is a symbol or a string. Anything else is an unhandled message.
#include "runtime/cluster/cluster_actor.hpp"

#include "runtime/cluster/cluster.hpp"
#include "runtime/runtime.hpp"
#include "runtime/symbols.hpp"
#include "runtime/text.hpp"

namespace humus::rt::cluster {

namespace {

struct Symbols {
  uint32_t publish = intern_symbol("publish"), published = intern_symbol("published"), lookup = intern_symbol("lookup"),
           monitor = intern_symbol("monitor"), nodes = intern_symbol("nodes"), topic = intern_symbol("topic"),
           leave = intern_symbol("leave");
};

bool is(const Value& v, uint32_t symbol) { return v.is_symbol() && v.symbol_id() == symbol; }

// Handles one request; false if the message is not one.
bool request(const Value& msg, Context& cx) {
  static const Symbols sym;
  Cluster& c = static_cast<Cluster&>(*cx.rt.distribution());  // the cluster made this actor
  if (is(msg, sym.leave)) {
    c.leave();
    return true;
  }
  if (!msg.is_pair() || !head(msg).is_actor()) return false;
  Actor* cust = head(msg).as<Actor>();
  const Value& rest = tail(msg);
  if (is(rest, sym.nodes)) {
    Value list = Value::nil();
    auto names = c.nodes();
    for (auto it = names.rbegin(); it != names.rend(); ++it) list = make_pair(Value::symbol(intern_symbol(*it)), list);
    cx.fx.send(cust, std::move(list));
    return true;
  }
  if (!rest.is_pair()) return false;
  const Value& op = head(rest);
  const Value& args = tail(rest);
  if (is(op, sym.publish)) {
    if (!args.is_pair() || !tail(args).is_actor()) return false;
    auto name = name_text(head(args));
    if (!name) return false;
    c.publish(*name, tail(args));
    cx.fx.send(cust, make_pair(Value::symbol(sym.published), head(args)));
    return true;
  }
  if (is(op, sym.lookup)) {
    auto name = name_text(args);
    if (!name) return false;
    Value actor = c.lookup(*name, head(msg));
    if (!actor.empty()) cx.fx.send(cust, std::move(actor));
    return true;
  }
  if (is(op, sym.monitor)) {
    if (!args.is_actor()) return false;
    c.monitor(head(msg), args);
    return true;
  }
  if (is(op, sym.topic)) {
    auto name = name_text(args);
    if (!name) return false;
    cx.fx.send(cust, c.topic(*name));
    return true;
  }
  return false;
}

void cluster_behavior(Actor&, const Value& msg, Context& cx) {
  if (!request(msg, cx)) cx.rt.unhandled(cx, msg);
}

}  // namespace

void define_cluster_actor(Runtime& rt, Cluster&) {
  static const NativeBehaviorCode code(cluster_behavior, "cluster");
  rt.globals().set(rt.globals().slot("cluster"), rt.system_actor(code));
}

}  // namespace humus::rt::cluster
