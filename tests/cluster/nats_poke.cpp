// nats_poke URL SUBJECT FILE...: publishes each file's bytes as one NATS
// message on SUBJECT (for the tests that feed a node bad input: the node
// must count and log it, and go on).
// nats_poke -r URL SUBJECT FILE...: sends each as a request instead and
// prints each reply on a line (a JetStream API call, say, to make a stream
// with limits of the test's choosing before a node uses it).
#include <nats/nats.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  const bool request = argc > 1 && std::strcmp(argv[1], "-r") == 0;
  if (request) ++argv, --argc;
  if (argc < 4) {
    std::fprintf(stderr, "usage: nats_poke [-r] URL SUBJECT FILE...\n");
    return 2;
  }
  natsConnection* nc = nullptr;
  if (natsConnection_ConnectTo(&nc, argv[1]) != NATS_OK) {
    std::fprintf(stderr, "nats_poke: cannot connect to %s\n", argv[1]);
    return 1;
  }
  natsStatus s = NATS_OK;
  for (int i = 3; i < argc && s == NATS_OK; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!request) {
      natsConnection_Publish(nc, argv[2], bytes.data(), int(bytes.size()));
      continue;
    }
    natsMsg* reply = nullptr;
    s = natsConnection_Request(&reply, nc, argv[2], bytes.data(), int(bytes.size()), 5000);
    if (s != NATS_OK) {
      std::fprintf(stderr, "nats_poke: no reply on %s: %s\n", argv[2], natsStatus_GetText(s));
      break;
    }
    std::printf("%.*s\n", natsMsg_GetDataLength(reply), natsMsg_GetData(reply));
    natsMsg_Destroy(reply);
  }
  if (s == NATS_OK) s = natsConnection_FlushTimeout(nc, 5000);
  natsConnection_Destroy(nc);
  return s == NATS_OK ? 0 : 1;
}
