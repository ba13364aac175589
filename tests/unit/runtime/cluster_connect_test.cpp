// A host that cannot reach a broker (the WebAssembly playground passes no
// Connect) is told so when a program's options ask to join.
#include <doctest/doctest.h>

#include <string>

#include "runtime/cluster/cluster.hpp"
#include "runtime/runtime.hpp"

using namespace humus::rt;

TEST_CASE("joining a cluster without a way to connect is a clear error") {
  RuntimeOptions o;
  o.threads = 1;
  Runtime rt(o);
  ClusterOptions c;
  c.url = "nats://127.0.0.1:4222";
  std::string what;
  try {
    cluster::Cluster joined(rt, c);  // no Connect
  } catch (const ClusterError& e) {
    what = e.what();
  }
  CHECK(what == "cannot join a cluster: this build has no NATS client");
}

TEST_CASE("without a URL no connection is needed: the cluster is this process") {
  RuntimeOptions o;
  o.threads = 1;
  Runtime rt(o);
  cluster::Cluster alone(rt, ClusterOptions{});
  CHECK_FALSE(alone.joined());
}
