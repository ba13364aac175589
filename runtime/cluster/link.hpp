// The connection to NATS (the C client library, nats.c).
//
// Options chosen for a runtime that batches itself: SendAsap, so a publish
// is written at once (the cluster already packs what turns send to one node
// into few publishes, send_queue.hpp, so latency is low and the syscalls few);
// one shared delivery thread for all subscriptions, so what one node sends
// another arrives in the order it was sent, across subjects; endless
// reconnection with back-off and jitter, with a large buffer that keeps
// what is published meanwhile and sends it on reconnection (beyond it a
// publish fails). That buffer alone does not make messages arrive: the
// send queue numbers them and sends again what is not acknowledged
// (send_queue.hpp).
// Credentials come from the URL or the options and are never logged.
#pragma once

#include <nats/nats.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/cluster/broker.hpp"
#include "runtime/cluster/cluster_options.hpp"

namespace humus::rt::cluster {

class Link final : public Transport {
 public:
  // Connects; throws ClusterError (with the URL redacted) when it cannot.
  Link(const ClusterOptions& options, const std::string& client_name, Events events);
  ~Link() override;
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  bool publish(const std::string& subject, const char* data, size_t len) override;
  void subscribe(const std::string& subject, Handler handler) override;
  bool connected() const override;
  int64_t max_payload() const override { return max_payload_; }
  natsConnection* connection() { return nc_; }
  void close() override;

 private:
  static void on_message(natsConnection*, natsSubscription*, natsMsg* msg, void* closure);
  static void on_disconnected(natsConnection*, void* closure);
  static void on_reconnected(natsConnection*, void* closure);
  static void on_error(natsConnection*, natsSubscription*, natsStatus s, void* closure);
  static void on_closed(natsConnection*, void* closure);
  static void on_complete(void* closure);

  Events events_;
  natsOptions* opts_ = nullptr;
  natsConnection* nc_ = nullptr;
  int64_t max_payload_ = 0;
  std::mutex mutex_;
  std::vector<natsSubscription*> subs_;
  std::deque<Handler> handlers_;  // stable addresses: the subscriptions' closures
  std::atomic<uint64_t> refused_{0};
  std::atomic<bool> closing_{false};
  // The library calls back on a thread of its own, after natsConnection_Close
  // returns (the disconnected callback, then the closed one): close() waits
  // for the closed callback, so none runs on a Link that is gone.
  // So with the subscriptions: a handler may still be running (or about to
  // run once more) when Unsubscribe returns, so close() also waits until the
  // library says each subscription is done with its handler (it was found
  // reading a Cluster already freed, under AddressSanitizer).
  std::mutex closed_mutex_;
  std::condition_variable closed_cv_;
  bool closed_ = false;
  size_t subscribed_ = 0;  // subscriptions whose end is reported (under closed_mutex_)
  size_t completed_ = 0;   // and those that ended
};

}  // namespace humus::rt::cluster
