#include "runtime/cluster/outbox.hpp"

namespace humus::rt::cluster {

Outbox::ToNode& Outbox::to(const std::shared_ptr<Node>& node) {
  for (auto& t : nodes)
    if (t.node == node) return t;
  nodes.push_back({node, {}, {}, 0});
  marks.push_back({0, 0, 0, 0});
  return nodes.back();
}

void Outbox::mark() {
  marks.resize(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ToNode& t = nodes[i];
    marks[i] = {t.chunks.size(), t.chunks.empty() ? 0 : t.chunks.back().size(), t.count,
                t.counts.empty() ? 0 : t.counts.back()};
  }
}

void Outbox::undo() {
  for (size_t i = 0; i < nodes.size(); ++i) {
    ToNode& t = nodes[i];
    const Mark m = i < marks.size() ? marks[i] : Mark{0, 0, 0, 0};
    t.chunks.resize(m.chunks);
    t.counts.resize(m.chunks);
    if (!t.chunks.empty()) t.chunks.back().resize(m.bytes), t.counts.back() = m.last_count;
    t.count = m.count;
  }
  appends.clear();
  subscriptions.clear();
}

void Outbox::add(ToNode& t, const std::string& header) {
  if (t.chunks.empty() || t.chunks.back().size() + scratch.size() > chunk_bytes) {
    t.chunks.push_back(header);
    t.counts.push_back(0);
  }
  t.chunks.back() += scratch;
  ++t.counts.back();
  ++t.count;
}

}  // namespace humus::rt::cluster
