// The raw-NATS twin of the cluster benchmarks (scripts/bench/cluster/run):
// the same traffic as rtt_*.hum and oneway_*.hum, through the NATS C
// client directly, with small payloads (8 bytes).
//
//   nats_twin URL rtt-server          answers each request on bench.rtt; ends at "quit"
//   nats_twin URL rtt-client K        K request/reply round trips, one at a time
//   nats_twin URL rtt-many K W        K round trips, W at a time (a new request per reply)
//   nats_twin URL sink K              counts K messages on bench.oneway
//   nats_twin URL source K            publishes K messages on bench.oneway
//
// Each prints "ready" once subscribed, and its result as "rtt K MS" or
// "oneway K MS" (milliseconds; for the sink, from the first message to the last).
#include <nats/nats.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

natsConnection* connect(const char* url, bool send_asap) {
  natsOptions* o = nullptr;
  natsOptions_Create(&o);
  natsOptions_SetURL(o, url);
  natsOptions_SetSendAsap(o, send_asap);
  natsConnection* nc = nullptr;
  if (natsConnection_Connect(&nc, o) != NATS_OK) {
    std::fprintf(stderr, "nats_twin: cannot connect to %s\n", url);
    std::exit(1);
  }
  natsOptions_Destroy(o);
  return nc;
}

void ready() {
  std::printf("ready\n");
  std::fflush(stdout);
}

struct Sink {
  long k;
  std::atomic<long> count{0};
  Clock::time_point first;
  std::atomic<bool> done{false};
};

void on_oneway(natsConnection*, natsSubscription*, natsMsg* m, void* closure) {
  auto* s = static_cast<Sink*>(closure);
  long n = ++s->count;
  if (n == 1) s->first = Clock::now();
  if (n == s->k) {
    std::printf("oneway %ld %.0f\n", s->k, ms_since(s->first));
    std::fflush(stdout);
    s->done = true;
  }
  natsMsg_Destroy(m);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: nats_twin URL rtt-server|rtt-client K|sink K|source K\n");
    return 2;
  }
  const char* url = argv[1];
  const std::string role = argv[2];
  const long k = argc > 3 ? std::atol(argv[3]) : 0;
  char payload[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (role == "rtt-server") {
    natsConnection* nc = connect(url, true);
    natsSubscription* sub = nullptr;
    natsConnection_SubscribeSync(&sub, nc, "bench.rtt");
    ready();
    for (;;) {
      natsMsg* m = nullptr;
      if (natsStatus s = natsSubscription_NextMsg(&m, sub, 60000); s != NATS_OK) {
        std::fprintf(stderr, "nats_twin: %s\n", natsStatus_GetText(s));
        return 1;
      }
      if (natsMsg_GetDataLength(m) == 4 && std::memcmp(natsMsg_GetData(m), "quit", 4) == 0) return 0;
      natsConnection_Publish(nc, natsMsg_GetReply(m), natsMsg_GetData(m), natsMsg_GetDataLength(m));
      natsMsg_Destroy(m);
    }
  }
  if (role == "rtt-client") {
    natsConnection* nc = connect(url, true);
    natsSubscription* sub = nullptr;
    natsConnection_SubscribeSync(&sub, nc, "bench.rtt.reply");
    natsConnection_Flush(nc);
    auto t0 = Clock::now();
    for (long i = 0; i < k; ++i) {
      natsConnection_PublishRequest(nc, "bench.rtt", "bench.rtt.reply", payload, sizeof payload);
      natsMsg* m = nullptr;
      if (natsSubscription_NextMsg(&m, sub, 10000) != NATS_OK) return 1;
      natsMsg_Destroy(m);
    }
    std::printf("rtt %ld %.0f\n", k, ms_since(t0));
    natsConnection_Publish(nc, "bench.rtt", "quit", 4);
    natsConnection_Flush(nc);
    return 0;
  }
  if (role == "rtt-many") {
    const long w = argc > 4 ? std::atol(argv[4]) : 1;
    natsConnection* nc = connect(url, true);
    natsSubscription* sub = nullptr;
    natsConnection_SubscribeSync(&sub, nc, "bench.rtt.reply");
    natsSubscription_SetPendingLimits(sub, -1, -1);
    natsConnection_Flush(nc);
    auto t0 = Clock::now();
    long sent = 0;
    for (; sent < k && sent < w; ++sent)
      natsConnection_PublishRequest(nc, "bench.rtt", "bench.rtt.reply", payload, sizeof payload);
    for (long got = 0; got < k; ++got) {
      natsMsg* m = nullptr;
      if (natsSubscription_NextMsg(&m, sub, 10000) != NATS_OK) return 1;
      natsMsg_Destroy(m);
      if (sent < k) {
        natsConnection_PublishRequest(nc, "bench.rtt", "bench.rtt.reply", payload, sizeof payload);
        ++sent;
      }
    }
    std::printf("rtt %ld %.0f\n", k, ms_since(t0));
    natsConnection_Publish(nc, "bench.rtt", "quit", 4);
    natsConnection_Flush(nc);
    return 0;
  }
  if (role == "sink") {
    natsConnection* nc = connect(url, false);
    Sink s;
    s.k = k;
    natsSubscription* sub = nullptr;
    natsConnection_Subscribe(&sub, nc, "bench.oneway", on_oneway, &s);
    natsSubscription_SetPendingLimits(sub, -1, -1);
    natsConnection_Flush(nc);
    ready();
    while (!s.done) nats_Sleep(1);
    return 0;
  }
  if (role == "source") {
    natsConnection* nc = connect(url, false);
    for (long i = 0; i < k; ++i) natsConnection_Publish(nc, "bench.oneway", payload, sizeof payload);
    natsConnection_Flush(nc);
    return 0;
  }
  std::fprintf(stderr, "nats_twin: unknown role %s\n", role.c_str());
  return 2;
}
