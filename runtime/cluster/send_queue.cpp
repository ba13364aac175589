#include "runtime/cluster/send_queue.hpp"

#include "runtime/cluster/link.hpp"

namespace humus::rt::cluster {

void SendQueue::put(Outbox::ToNode& t) {
  std::lock_guard lock(queue_mutex_);
  Outbox::ToNode* q = nullptr;
  for (auto& n : nodes_)
    if (n.node == t.node) q = &n;
  if (!q) q = &nodes_.emplace_back(Outbox::ToNode{t.node, {}, 0});
  for (auto& chunk : t.chunks) {
    // Into the last chunk when both fit in one; whole (header and all) otherwise.
    if (!q->chunks.empty() && q->chunks.back().size() + chunk.size() - header_bytes_ <= chunk_bytes_)
      q->chunks.back().append(chunk, header_bytes_, std::string::npos);
    else
      q->chunks.push_back(std::move(chunk));
  }
  pending_.store(true, std::memory_order_release);
}

void SendQueue::send() {
  if (empty()) return;
  std::lock_guard sending(send_mutex_);
  std::vector<Outbox::ToNode> batch;
  {
    std::lock_guard lock(queue_mutex_);
    batch.swap(nodes_);
    pending_.store(false, std::memory_order_release);
  }
  for (const auto& n : batch) {
    for (const auto& chunk : n.chunks)
      if (!link_.publish(n.node->subject, chunk.data(), chunk.size())) Counters::add(counters_.lost);
    Counters::add(counters_.packets, n.chunks.size());
  }
}

}  // namespace humus::rt::cluster
