#include "runtime/cluster/outbox.hpp"

namespace humus::rt::cluster {

Outbox::ToNode& Outbox::to(const std::shared_ptr<Node>& node) {
  for (auto& t : nodes)
    if (t.node == node) return t;
  nodes.push_back({node, {}, 0});
  marks.push_back({0, 0, 0});
  return nodes.back();
}

void Outbox::mark() {
  marks.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    marks[i] = {nodes[i].chunks.size(), nodes[i].chunks.empty() ? 0 : nodes[i].chunks.back().size(), nodes[i].count};
}

void Outbox::undo() {
  for (size_t i = 0; i < nodes.size(); ++i) {
    ToNode& t = nodes[i];
    const Mark m = i < marks.size() ? marks[i] : Mark{0, 0, 0};
    t.chunks.resize(m.chunks);
    if (!t.chunks.empty()) t.chunks.back().resize(m.bytes);
    t.count = m.count;
  }
  appends.clear();
  subscriptions.clear();
}

void Outbox::add(ToNode& t, const std::string& header) {
  if (t.chunks.empty() || t.chunks.back().size() + scratch.size() > chunk_bytes) t.chunks.push_back(header);
  t.chunks.back() += scratch;
  ++t.count;
}

}  // namespace humus::rt::cluster
