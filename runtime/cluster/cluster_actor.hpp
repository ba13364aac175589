// The global actor `cluster` (the protocol of docs/distribution.md).
#pragma once

namespace humus::rt {
class Runtime;
}

namespace humus::rt::cluster {

class Cluster;
// Binds the global `cluster` to an actor that speaks for `c`.
void define_cluster_actor(Runtime& rt, Cluster& c);

}  // namespace humus::rt::cluster
