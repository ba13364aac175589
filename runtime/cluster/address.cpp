#include "runtime/cluster/address.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>

namespace humus::rt::cluster {

void random_bytes(void* out, size_t n) {
  auto* p = static_cast<uint8_t*>(out);
  while (n > 0) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      // Capabilities made from a weak source would be guessable: refuse.
      std::fputs("humus: fatal: no random bytes from the kernel for actor addresses\n", stderr);
      std::abort();
    }
    p += got;
    n -= size_t(got);
  }
}

Token random_token() {
  Token t;
  random_bytes(t.bytes.data(), t.bytes.size());
  return t;
}

NodeId random_node_id() {
  NodeId id = 0;
  while (id == 0) random_bytes(&id, sizeof id);
  return id;
}

std::string node_hex(NodeId id) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(id));
  return buf;
}

}  // namespace humus::rt::cluster
