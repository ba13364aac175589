#include "runtime/cluster/link.hpp"

#include <chrono>

#include <spdlog/spdlog.h>

namespace humus::rt::cluster {

namespace {

std::vector<std::string> split_urls(const std::string& urls) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= urls.size()) {
    size_t end = urls.find(',', start);
    if (end == std::string::npos) end = urls.size();
    std::string one = urls.substr(start, end - start);
    while (!one.empty() && one.front() == ' ') one.erase(0, 1);
    while (!one.empty() && one.back() == ' ') one.pop_back();
    if (!one.empty()) out.push_back(one);
    start = end + 1;
  }
  return out;
}

[[noreturn]] void fail(const ClusterOptions& o, const std::string& what, natsStatus s, const char* hint = "") {
  // nats_GetLastError's text names no credentials; the URL is redacted.
  natsStatus last = NATS_OK;
  const char* detail = nats_GetLastError(&last);
  std::string text = "cannot join the cluster at " + redact_urls(o.url) + ": " + what + ": " + natsStatus_GetText(s);
  if (detail && *detail && std::string_view(detail) != natsStatus_GetText(s)) text += std::string(" (") + detail + ")";
  throw ClusterError(text + hint);
}

void check(const ClusterOptions& o, const char* what, natsStatus s) {
  if (s != NATS_OK) fail(o, what, s);
}

}  // namespace

Link::Link(const ClusterOptions& o, const std::string& client_name, Events events) : events_(std::move(events)) {
  std::vector<std::string> urls = split_urls(o.url);
  if (urls.empty()) throw ClusterError("no cluster URL given");
  std::vector<const char*> url_ptrs;
  bool tls = !o.tls_ca.empty() || !o.tls_cert.empty();
  for (const auto& u : urls) {
    url_ptrs.push_back(u.c_str());
    if (u.rfind("tls://", 0) == 0) tls = true;
  }
  check(o, "options", natsOptions_Create(&opts_));
  check(o, "URL", natsOptions_SetServers(opts_, url_ptrs.data(), int(url_ptrs.size())));
  natsOptions_SetName(opts_, client_name.c_str());
  if (!o.user.empty()) check(o, "user", natsOptions_SetUserInfo(opts_, o.user.c_str(), o.password.c_str()));
  if (!o.token.empty()) check(o, "token", natsOptions_SetToken(opts_, o.token.c_str()));
  if (tls) {
    check(o, "TLS", natsOptions_SetSecure(opts_, true));
    if (!o.tls_ca.empty()) check(o, "TLS CA file", natsOptions_LoadCATrustedCertificates(opts_, o.tls_ca.c_str()));
    if (!o.tls_cert.empty())
      check(o, "TLS certificate", natsOptions_LoadCertificatesChain(opts_, o.tls_cert.c_str(), o.tls_key.c_str()));
  }
  natsOptions_SetSendAsap(opts_, true);
  natsOptions_UseGlobalMessageDelivery(opts_, true);
  natsOptions_SetTimeout(opts_, 5000);
  natsOptions_SetAllowReconnect(opts_, true);
  natsOptions_SetMaxReconnect(opts_, -1);  // forever
  natsOptions_SetReconnectWait(opts_, 250);
  natsOptions_SetReconnectJitter(opts_, 250, 1000);
  natsOptions_SetReconnectBufSize(opts_, 64 << 20);
  natsOptions_SetMaxPendingMsgs(opts_, 1 << 20);
  natsOptions_SetPingInterval(opts_, 2000);
  natsOptions_SetMaxPingsOut(opts_, 3);
  natsOptions_SetDisconnectedCB(opts_, on_disconnected, this);
  natsOptions_SetReconnectedCB(opts_, on_reconnected, this);
  natsOptions_SetErrorHandler(opts_, on_error, this);
  natsOptions_SetClosedCB(opts_, on_closed, this);
  natsStatus s = natsConnection_Connect(&nc_, opts_);
  if (s != NATS_OK) {
    natsOptions_Destroy(opts_);
    opts_ = nullptr;
    // A TLS server that wants a client certificate just hangs up on a
    // client without one: nats.c then says only "Expected 'PONG'".
    const bool maybe_client_cert = tls && o.tls_cert.empty() && s == NATS_PROTOCOL_ERROR;
    fail(o, "no connection", s,
         maybe_client_cert
             ? "; if the server wants a client certificate, give it with HUMUS_NATS_CERT and HUMUS_NATS_KEY"
             : "");
  }
  max_payload_ = natsConnection_GetMaxPayload(nc_);
}

Link::~Link() {
  close();
  if (nc_) natsConnection_Destroy(nc_);
  if (opts_) natsOptions_Destroy(opts_);
}

bool Link::publish(const std::string& subject, const char* data, size_t len) {
  natsStatus s = natsConnection_Publish(nc_, subject.c_str(), data, int(len));
  if (s == NATS_OK) return true;
  // Beyond the reconnect buffer, or closed: loud, but not once per message.
  uint64_t n = refused_.fetch_add(1, std::memory_order_relaxed);
  if ((n & (n + 1)) == 0)
    spdlog::error("cluster: NATS refused a publish ({}); {} refused so far", natsStatus_GetText(s), n + 1);
  return false;
}

void Link::subscribe(const std::string& subject, Handler handler) {
  std::lock_guard lock(mutex_);
  Handler& h = handlers_.emplace_back(std::move(handler));
  natsSubscription* sub = nullptr;
  natsStatus s = natsConnection_Subscribe(&sub, nc_, subject.c_str(), on_message, &h);
  if (s != NATS_OK) throw ClusterError("cannot subscribe to " + subject + ": " + natsStatus_GetText(s));
  // Never drop what arrives: a slow consumer loses messages silently otherwise.
  natsSubscription_SetPendingLimits(sub, -1, -1);
  if (natsSubscription_SetOnCompleteCB(sub, on_complete, this) == NATS_OK) {
    std::lock_guard closed_lock(closed_mutex_);
    ++subscribed_;
  }
  subs_.push_back(sub);
}

bool Link::connected() const { return nc_ && natsConnection_Status(nc_) == NATS_CONN_STATUS_CONNECTED; }

void Link::close() {
  closing_.store(true);
  std::vector<natsSubscription*> subs;
  {
    std::lock_guard lock(mutex_);
    subs.swap(subs_);
  }
  for (natsSubscription* sub : subs) {
    natsSubscription_Unsubscribe(sub);
    natsSubscription_Destroy(sub);
  }
  {
    // Every handler has returned, and none will run again.
    std::unique_lock lock(closed_mutex_);
    if (!closed_cv_.wait_for(lock, std::chrono::seconds(30), [this] { return completed_ >= subscribed_; }))
      spdlog::error("cluster: a NATS subscription's handler did not end within 30 s of closing");
  }
  if (nc_ && !natsConnection_IsClosed(nc_)) {
    natsConnection_FlushTimeout(nc_, 2000);  // what we published goes out first
    natsConnection_Close(nc_);
  }
  if (nc_) {
    std::unique_lock lock(closed_mutex_);
    closed_cv_.wait_for(lock, std::chrono::seconds(5), [this] { return closed_; });
  }
}

void Link::on_closed(natsConnection*, void* closure) {
  auto* self = static_cast<Link*>(closure);
  // Notified under the lock: once close() sees closed_, this thread is done with self.
  std::lock_guard lock(self->closed_mutex_);
  self->closed_ = true;
  self->closed_cv_.notify_all();
}

void Link::on_complete(void* closure) {
  auto* self = static_cast<Link*>(closure);
  // Notified under the lock, as in on_closed.
  std::lock_guard lock(self->closed_mutex_);
  ++self->completed_;
  self->closed_cv_.notify_all();
}

void Link::on_message(natsConnection*, natsSubscription*, natsMsg* msg, void* closure) {
  auto& handler = *static_cast<Handler*>(closure);
  handler(natsMsg_GetData(msg), size_t(natsMsg_GetDataLength(msg)));
  natsMsg_Destroy(msg);
}

void Link::on_disconnected(natsConnection*, void* closure) {
  auto* self = static_cast<Link*>(closure);
  if (self->closing_.load()) return;  // our own close
  spdlog::warn("cluster: lost the connection to NATS; reconnecting");
  if (self->events_.disconnected) self->events_.disconnected();
}

void Link::on_reconnected(natsConnection*, void* closure) {
  auto* self = static_cast<Link*>(closure);
  spdlog::warn("cluster: reconnected to NATS");
  if (self->events_.reconnected) self->events_.reconnected();
}

void Link::on_error(natsConnection*, natsSubscription*, natsStatus s, void*) {
  spdlog::error("cluster: NATS: {}", natsStatus_GetText(s));
}

}  // namespace humus::rt::cluster
