// Chunk plan, connection count and the arrived-bytes extents of a ranged download (pure).
#include "cudnnctl/fetch/range_plan.hpp"

#include <algorithm>
#include <iterator>

namespace cudnnctl {

void ExtentSet::add(std::uint64_t begin, std::uint64_t end) {
  if (begin >= end) return;
  auto it = m_extents.upper_bound(begin);
  if (it != m_extents.begin()) {
    auto before = std::prev(it);
    if (before->second >= begin) {  // touches or overlaps the extent before: grow that one
      begin = before->first;
      end = std::max(end, before->second);
      it = m_extents.erase(before);
    }
  }
  while (it != m_extents.end() && it->first <= end) {  // swallow the extents it reaches
    end = std::max(end, it->second);
    it = m_extents.erase(it);
  }
  m_extents.emplace(begin, end);
}

std::uint64_t ExtentSet::prefix() const {
  if (m_extents.empty() || m_extents.begin()->first != 0) return 0;
  return m_extents.begin()->second;
}

std::uint64_t ExtentSet::first_gap(std::uint64_t from) const {
  auto it = m_extents.upper_bound(from);
  if (it != m_extents.begin()) {
    const auto before = std::prev(it);
    if (before->second > from) return before->second;
  }
  return from;
}

std::uint64_t ExtentSet::bytes() const {
  std::uint64_t n = 0;
  for (const auto& [b, e] : m_extents) n += e - b;
  return n;
}

bool ExtentSet::covers(std::uint64_t begin, std::uint64_t end) const {
  if (begin >= end) return true;
  auto it = m_extents.upper_bound(begin);
  if (it == m_extents.begin()) return false;
  --it;
  return it->first <= begin && it->second >= end;
}

std::vector<ByteRange> plan_ranges(std::uint64_t total, std::uint64_t chunk, const ExtentSet& done) {
  std::vector<ByteRange> out;
  if (chunk == 0) chunk = total ? total : 1;
  for (std::uint64_t start = 0; start < total; start += chunk) {
    const std::uint64_t end = std::min(total, start + chunk);  // this chunk is [start, end)
    std::uint64_t at = start;
    while (at < end) {
      at = done.first_gap(at);
      if (at >= end) break;
      auto next = done.extents().upper_bound(at);
      const std::uint64_t stop = next == done.extents().end() ? end : std::min(end, next->first);
      out.push_back({at, stop - 1});
      at = stop;
    }
  }
  return out;
}

void put_tail_first(std::vector<ByteRange>& plan) {
  if (plan.size() > 1) std::rotate(plan.begin(), std::prev(plan.end()), plan.end());
}

void taper_tail(std::vector<ByteRange>& plan, int connections, std::uint64_t min_piece) {
  const std::size_t n = plan.size();
  const std::size_t from = n > static_cast<std::size_t>(connections) + 1 ? n - static_cast<std::size_t>(connections) : 1;
  std::vector<ByteRange> out(plan.begin(), plan.begin() + static_cast<std::ptrdiff_t>(std::min(from, n)));
  for (std::size_t i = from; i < n; ++i) {
    const auto r = plan[i];
    const std::uint64_t pieces = std::clamp<std::uint64_t>(r.size() / std::max<std::uint64_t>(min_piece, 1), 1, 4);
    const std::uint64_t step = r.size() / pieces;
    for (std::uint64_t k = 0; k < pieces; ++k)
      out.push_back({r.first + k * step, k + 1 == pieces ? r.last : r.first + (k + 1) * step - 1});
  }
  plan = std::move(out);
}

int choose_connections(int asked, std::size_t ranges) {
  const std::size_t want = asked > 0 ? static_cast<std::size_t>(asked) : 8;
  return static_cast<int>(std::clamp<std::size_t>(std::min(want, ranges), 1, 32));
}

} // namespace cudnnctl
