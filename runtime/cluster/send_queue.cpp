#include "runtime/cluster/send_queue.hpp"

#include <spdlog/spdlog.h>

#include "runtime/cluster/broker.hpp"
#include "runtime/cluster/wire.hpp"

namespace humus::rt::cluster {

namespace {
// Bookkeeping of chunks let go is kept for this many; older ones are counted lost at once.
constexpr size_t kMaxLetGo = 1 << 20;
// A receiver asking again for the same chunks within this is not answered twice.
constexpr auto kAskedAgain = std::chrono::milliseconds(200);
}  // namespace

void SendQueue::put(Outbox::ToNode& t) {
  std::lock_guard lock(queue_mutex_);
  Outbox::ToNode* q = nullptr;
  for (auto& n : nodes_)
    if (n.node == t.node) q = &n;
  if (!q) q = &nodes_.emplace_back(Outbox::ToNode{t.node, {}, {}, 0});
  for (size_t i = 0; i < t.chunks.size(); ++i) {
    std::string& chunk = t.chunks[i];
    const uint64_t count = i < t.counts.size() ? t.counts[i] : 0;
    // Into the last chunk when both fit in one; whole (header and all) otherwise.
    if (!q->chunks.empty() && q->chunks.back().size() + chunk.size() - header_bytes_ <= chunk_bytes_) {
      q->chunks.back().append(chunk, header_bytes_, std::string::npos);
      q->counts.back() += count;
    } else {
      q->chunks.push_back(std::move(chunk));
      q->counts.push_back(count);
    }
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
  const auto now = Clock::now();
  for (auto& n : batch) {
    if (n.node->is_down()) {  // went down since the turn: as if it had been then
      uint64_t count = 0;
      for (uint64_t c : n.counts) count += c;
      Counters::add(counters_.dropped, count);
      continue;
    }
    Peer& p = peers_[n.node->id];
    if (!p.node) p.node = n.node;
    for (size_t i = 0; i < n.chunks.size(); ++i) {
      std::string& chunk = n.chunks[i];
      const uint64_t seq = p.next_seq++;
      wire::set_seq(chunk, header_bytes_, seq);
      // A refused publish (the client's reconnect buffer is full) is kept and sent again like a lost one.
      link_.publish(n.node->subject, chunk.data(), chunk.size());
      if (p.unacked.empty() && p.let_go.empty()) {
        p.waiting_since = p.progress_at = now;
        p.resend_after = kResendAfter;
      }
      p.bytes += chunk.size();
      p.unacked.push_back({seq, std::move(chunk), i < n.counts.size() ? n.counts[i] : 0});
    }
    Counters::add(counters_.packets, n.chunks.size());
    hold_if_left();
    while (p.bytes > kKeepBytes && p.unacked.size() > 1) {
      if (!p.warned_full) {
        spdlog::warn(
            "cluster: node {} has not acknowledged {} MB: the oldest are no longer kept to be sent again (lost if "
            "they did not arrive)",
            node_hex(n.node->id), p.bytes >> 20);
        p.warned_full = true;
      }
      Sent& old = p.unacked.front();
      p.bytes -= old.bytes.size();
      p.let_go.emplace_back(old.seq, old.count);
      p.unacked.pop_front();
      if (p.let_go.size() > kMaxLetGo) {
        // Logged the first, second, fourth... time: this can go on for long.
        const uint64_t k = p.gave_up++;
        if ((k & (k + 1)) == 0)
          lose(p, p.let_go.front().second, "no acknowledgement for over a million NATS messages");
        else
          Counters::add(counters_.lost, p.let_go.front().second);
        p.floor = p.let_go.front().first + 1;
        p.let_go.pop_front();
      }
    }
  }
}

void SendQueue::acked(NodeId from, uint64_t next, bool resend_rest) {
  std::unique_lock lock(send_mutex_);
  auto it = peers_.find(from);
  if (it == peers_.end()) return;
  Peer& p = it->second;
  next = std::min(next, p.next_seq);
  bool progress = false;
  while (!p.let_go.empty() && p.let_go.front().first < next) p.let_go.pop_front(), progress = true;
  while (!p.unacked.empty() && p.unacked.front().seq < next) {
    p.bytes -= p.unacked.front().bytes.size();
    p.unacked.pop_front();
    progress = true;
  }
  const auto now = Clock::now();
  if (progress) {
    p.waiting_since = p.progress_at = now;
    p.resend_after = kResendAfter;
    if (p.bytes <= kKeepBytes / 2) p.warned_full = false;
  }
  if (resend_rest && !(p.asked == next && now - p.asked_at < kAskedAgain)) {
    p.asked = next;
    p.asked_at = now;
    // What it lacks and we let go cannot come again: lost, and it must stop waiting for it.
    if (!p.let_go.empty()) {
      uint64_t count = 0;
      for (const auto& [seq, c] : p.let_go) count += c;
      p.let_go.clear();
      lose(p, count, "not kept to be sent again");
      p.floor = p.unacked.empty() ? p.next_seq : p.unacked.front().seq;
    }
    // Told again each time it asks: a "skip" can be lost like anything else.
    if (next < p.floor) {
      std::string skip;
      wire::put_skip(skip, self_, p.floor);
      link_.publish(p.node->subject, skip.data(), skip.size());
    }
    resend(p, "it missed some");
  }
  if (p.unacked.empty() && p.let_go.empty()) settled_.notify_all();
  const bool release = unhold();
  lock.unlock();
  if (release) hold_.release();
}

void SendQueue::tick(Clock::time_point now) {
  std::unique_lock lock(send_mutex_);
  for (auto it = peers_.begin(); it != peers_.end();) {
    Peer& p = it->second;
    if (p.node->is_down()) {
      it = peers_.erase(it);
      continue;
    }
    const bool waiting = !p.unacked.empty() || !p.let_go.empty();
    if (waiting && left_ && now - std::max(p.progress_at, left_at_) >= kGiveUpAfter) {
      give_up(p, "not acknowledged within 2 s after this node left");
    } else if (!p.unacked.empty() && now - p.waiting_since >= p.resend_after && link_.connected()) {
      resend(p, "no acknowledgement in time");
      p.resend_after = std::min(p.resend_after * 2, kResendAfterMax);
    }
    ++it;
  }
  if (settled()) settled_.notify_all();
  const bool release = unhold();
  lock.unlock();
  if (release) hold_.release();
}

void SendQueue::forget(NodeId id) {
  std::unique_lock lock(send_mutex_);
  peers_.erase(id);
  if (settled()) settled_.notify_all();
  const bool release = unhold();
  lock.unlock();
  if (release) hold_.release();
}

void SendQueue::leaving() {
  send();
  std::lock_guard lock(send_mutex_);
  left_ = true;
  left_at_ = Clock::now();
  hold_if_left();
}

void SendQueue::drain() {
  send();
  std::unique_lock lock(send_mutex_);
  settled_.wait_for(lock, kGiveUpAfter, [this] { return settled(); });
  for (auto& [id, p] : peers_)
    if (!p.node->is_down()) give_up(p, "not acknowledged when this node stopped");
  peers_.clear();
  const bool release = holding_;
  holding_ = false;
  lock.unlock();
  if (release) hold_.release();
}

void SendQueue::give_up(Peer& p, const char* why) {
  uint64_t count = 0;
  for (const auto& s : p.unacked) count += s.count;
  for (const auto& [seq, c] : p.let_go) count += c;
  p.unacked.clear();
  p.let_go.clear();
  p.bytes = 0;
  p.floor = p.next_seq;
  lose(p, count, why);
}

void SendQueue::hold_if_left() {
  if (!left_ || holding_ || settled()) return;
  holding_ = true;
  hold_.take();
}

bool SendQueue::unhold() {
  if (!holding_ || !settled()) return false;
  holding_ = false;
  return true;
}

void SendQueue::resend(Peer& p, const char* why) {
  if (p.unacked.empty()) return;
  uint64_t count = 0;
  for (const auto& s : p.unacked) count += s.count;
  spdlog::info("cluster: sending {} messages ({} NATS messages from number {}) to node {} again: {}", count,
               p.unacked.size(), p.unacked.front().seq, node_hex(p.node->id), why);
  for (const auto& s : p.unacked) link_.publish(p.node->subject, s.bytes.data(), s.bytes.size());
  p.waiting_since = Clock::now();
}

void SendQueue::lose(Peer& p, uint64_t messages, const char* why) {
  if (!messages) return;
  Counters::add(counters_.lost, messages);
  spdlog::error("cluster: {} messages to node {} are counted lost: {}", messages, node_hex(p.node->id), why);
}

bool SendQueue::settled() const {
  for (const auto& [id, p] : peers_)
    if (!p.node->is_down() && (!p.unacked.empty() || !p.let_go.empty())) return false;
  return true;
}

}  // namespace humus::rt::cluster
