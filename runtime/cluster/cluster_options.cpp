#include "runtime/cluster/cluster_options.hpp"

namespace humus::rt {

std::string redact_urls(const std::string& url) {
  std::string out;
  size_t start = 0;
  while (start <= url.size()) {
    size_t end = url.find(',', start);
    if (end == std::string::npos) end = url.size();
    std::string one = url.substr(start, end - start);
    size_t scheme = one.find("://");
    size_t host = scheme == std::string::npos ? 0 : scheme + 3;
    size_t at = one.find('@', host);
    if (at != std::string::npos && one.find('/', host) > at) one = one.substr(0, host) + "***" + one.substr(at);
    if (!out.empty()) out += ',';
    out += one;
    start = end + 1;
  }
  return out;
}

}  // namespace humus::rt
