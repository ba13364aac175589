// What a runtime needs to know to join a cluster, and what it counts there.
// Plain data: the humus command fills it from --cluster and friends, an
// embedding host from humus::Options::cluster (docs/distribution.md).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "runtime/foreign.hpp"

namespace humus::rt {

struct ClusterOptions {
  // nats://HOST:PORT (also nats://user:password@..., nats://token@...,
  // tls://...; several separated by commas). Empty: no broker, the cluster
  // is this process alone and topics live in memory.
  std::string url;
  std::string node;            // this node's name (default: "local", or host-pid when clustered)
  std::string name = "humus";  // the cluster's name: prefix of every subject and stream
  // Credentials and TLS files, besides what the URL says; never logged.
  std::string user, password, token;
  std::string tls_ca, tls_cert, tls_key;
  // Failure detection: a heartbeat every heartbeat_ms; a node silent for
  // down_after_ms is down (and so is one that said goodbye).
  int64_t heartbeat_ms = 500;
  int64_t down_after_ms = 3000;
  // Topics: a failed delivery comes back after retry_delay_ms; after
  // max_deliveries it goes to the topic NAME.dead instead. A delivery not
  // settled within ack_wait_ms (its node died) is given to another member.
  int64_t retry_delay_ms = 1000;
  int64_t max_deliveries = 5;
  int64_t ack_wait_ms = 10000;
  // Servers that keep a copy of each topic's streams (JetStream replicas):
  // a topic goes on while a majority of them live (3: one may die).
  int64_t topic_replicas = 1;
};

// JetStream's limit on a stream's replicas.
constexpr int64_t kMaxTopicReplicas = 5;

// Joining failed (no broker there, wrong credentials, ...). The message
// names the URL without its credentials.
struct ClusterError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The URLs of `url` without user names, passwords and tokens, for messages.
std::string redact_urls(const std::string& url);

// What a cluster counts (runtime/foreign.hpp).
using ClusterStats = DistributionStats;

}  // namespace humus::rt
