// fetch_overshoot URL [--raw]: fetching from a topic survives what made
// libnats 3.4.1 write past its batch array (jetstream_topics.hpp,
// fetch_some): messages of a stale pull request already waiting in the
// subscription when a fetch starts, more arriving while it runs. A
// consumer node died with SIGSEGV that way in the bank test (issue 33).
//
// The set-up, on a stream of its own: 3 values; a pull request for 3 (as
// one sent before a reconnection and answered after it), whose values wait
// in the subscription; another for 5, left waiting at the server; then 5
// more values, which that request takes while the fetches run. Each fetch
// asks for 4 (as a node with one member does) and must get at most 4; the
// 8 values must all arrive, each once.
// --raw: natsSubscription_Fetch itself, to see the overflow it guards
// against (Count above 4; under AddressSanitizer, a heap-buffer-overflow).
#include <nats/nats.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <thread>

#include "runtime/cluster/jetstream_topics.hpp"

namespace {

int fail(const std::string& why) {
  std::fprintf(stderr, "fetch_overshoot: FAIL: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return fail("usage: fetch_overshoot URL [--raw]");
  const bool raw = argc > 2 && std::strcmp(argv[2], "--raw") == 0;
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  if (natsConnection_ConnectTo(&nc, argv[1]) != NATS_OK) return fail(std::string("cannot connect to ") + argv[1]);
  if (natsConnection_JetStream(&js, nc, nullptr) != NATS_OK) return fail("no JetStream context");
  const std::string stream = "fetch_" + std::to_string(getpid()), subject = stream + ".values";
  const char* subjects[] = {subject.c_str()};
  jsStreamConfig cfg;
  jsStreamConfig_Init(&cfg);
  cfg.Name = stream.c_str();
  cfg.Subjects = subjects;
  cfg.SubjectsLen = 1;
  cfg.Storage = js_MemoryStorage;
  jsErrCode code = jsErrCode(0);
  if (js_AddStream(nullptr, js, &cfg, nullptr, &code) != NATS_OK) return fail("cannot make the stream");
  auto publish = [&](int from, int to) {
    for (int i = from; i <= to; ++i) {
      const std::string v = std::to_string(i);
      if (js_Publish(nullptr, js, subject.c_str(), v.data(), int(v.size()), nullptr, &code) != NATS_OK) return false;
    }
    return true;
  };
  if (!publish(1, 3)) return fail("cannot publish");
  jsConsumerConfig cc;
  jsConsumerConfig_Init(&cc);
  cc.Durable = "group";
  cc.AckPolicy = js_AckExplicit;
  if (js_AddConsumer(nullptr, js, stream.c_str(), &cc, nullptr, &code) != NATS_OK)
    return fail("cannot make the consumer");
  jsSubOptions so;
  jsSubOptions_Init(&so);
  so.Stream = stream.c_str();
  so.Consumer = "group";
  natsSubscription* sub = nullptr;
  if (js_PullSubscribe(&sub, js, subject.c_str(), "group", nullptr, &so, &code) != NATS_OK)
    return fail("cannot subscribe");

  // The stale requests, sent as the library sends its own (reply: the subscription's inbox).
  const std::string next = "$JS.API.CONSUMER.MSG.NEXT." + stream + ".group";
  const char* inbox = natsSubscription_GetSubject(sub);
  natsConnection_PublishRequestString(nc, next.c_str(), inbox, "{\"batch\":3}");
  int waiting = 0;
  for (int i = 0; i < 500 && waiting < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    natsSubscription_GetPending(sub, &waiting, nullptr);
  }
  if (waiting < 3) return fail("the first stale request's values did not arrive");
  natsConnection_PublishRequestString(nc, next.c_str(), inbox, "{\"batch\":5,\"expires\":5000000000}");
  natsConnection_Flush(nc);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the server holds it
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    publish(4, 8);
  });

  std::set<std::string> got;
  int fetches = 0, most = 0;
  for (int round = 0; round < 40 && got.size() < 8; ++round) {
    natsMsgList list{};
    natsStatus s =
        raw ? natsSubscription_Fetch(&list, sub, 4, 500, nullptr) : humus::rt::cluster::fetch_some(&list, sub, 4, 500);
    if (s == NATS_TIMEOUT) continue;
    if (s != NATS_OK) {
      later.join();
      return fail(std::string("fetch: ") + natsStatus_GetText(s));
    }
    ++fetches;
    most = std::max(most, list.Count);
    for (int i = 0; i < list.Count; ++i) {
      const std::string v(natsMsg_GetData(list.Msgs[i]), size_t(natsMsg_GetDataLength(list.Msgs[i])));
      if (!got.insert(v).second) {
        later.join();
        return fail("value " + v + " came twice");
      }
      natsMsg_Ack(list.Msgs[i], nullptr);
    }
    natsMsgList_Destroy(&list);
    if (most > 4) break;
  }
  later.join();
  js_DeleteStream(js, stream.c_str(), nullptr, nullptr);
  natsSubscription_Destroy(sub);
  jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  if (most > 4) return fail("a fetch for 4 returned " + std::to_string(most) + " messages (its array holds 4)");
  if (got.size() != 8) return fail(std::to_string(got.size()) + " of the 8 values arrived");
  std::printf("fetch_overshoot: ok (8 values in %d fetches, at most %d at once)\n", fetches, most);
  return 0;
}
