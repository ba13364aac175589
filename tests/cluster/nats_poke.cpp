// nats_poke URL SUBJECT FILE...: publishes each file's bytes as one NATS
// message on SUBJECT (for the tests that feed a node bad input: the node
// must count and log it, and go on).
#include <nats/nats.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: nats_poke URL SUBJECT FILE...\n");
    return 2;
  }
  natsConnection* nc = nullptr;
  if (natsConnection_ConnectTo(&nc, argv[1]) != NATS_OK) {
    std::fprintf(stderr, "nats_poke: cannot connect to %s\n", argv[1]);
    return 1;
  }
  for (int i = 3; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    natsConnection_Publish(nc, argv[2], bytes.data(), int(bytes.size()));
  }
  natsStatus s = natsConnection_FlushTimeout(nc, 5000);
  natsConnection_Destroy(nc);
  return s == NATS_OK ? 0 : 1;
}
