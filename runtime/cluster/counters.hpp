// The cluster's counters (ClusterStats), bumped from any thread.
#pragma once

#include <atomic>
#include <cstdint>

#include "runtime/cluster/cluster_options.hpp"

namespace humus::rt::cluster {

struct Counters {
  std::atomic<uint64_t> sent{0}, received{0}, dropped{0}, rejected{0}, lost{0};
  std::atomic<uint64_t> appended{0}, delivered{0}, redelivered{0}, dead_letters{0};
  std::atomic<uint64_t> packets{0};

  static void add(std::atomic<uint64_t>& c, uint64_t n = 1) { c.fetch_add(n, std::memory_order_relaxed); }
  ClusterStats snapshot() const {
    auto get = [](const std::atomic<uint64_t>& c) { return c.load(std::memory_order_relaxed); };
    return {get(sent),     get(received),  get(dropped),     get(rejected),     get(lost),
            get(appended), get(delivered), get(redelivered), get(dead_letters), get(packets)};
  }
};

}  // namespace humus::rt::cluster
