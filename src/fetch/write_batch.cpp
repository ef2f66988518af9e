// Small arriving pieces written in larger ones (see the header).
#include "cudnnctl/fetch/write_batch.hpp"

#include <algorithm>
#include <utility>

namespace cudnnctl {

WriteBatch::WriteBatch(std::size_t capacity, std::chrono::steady_clock::duration max_age, Writer write)
    : m_capacity(std::max<std::size_t>(capacity, 1)), m_max_age(max_age), m_write(std::move(write)) {
  m_buffer.reserve(m_capacity);
}

Result<void> WriteBatch::add(std::uint64_t at, const char* data, std::size_t n) {
  if (!m_buffer.empty() && at != m_at + m_buffer.size()) CUDNNCTL_TRY(flush());
  while (n > 0) {
    if (m_buffer.empty()) {
      m_at = at;
      m_since = std::chrono::steady_clock::now();
    }
    const std::size_t take = std::min(n, m_capacity - m_buffer.size());
    m_buffer.insert(m_buffer.end(), data, data + take);
    data += take;
    at += take;
    n -= take;
    if (m_buffer.size() == m_capacity) CUDNNCTL_TRY(flush());
  }
  if (!m_buffer.empty() && std::chrono::steady_clock::now() - m_since >= m_max_age) return flush();
  return {};
}

Result<void> WriteBatch::flush() {
  if (m_buffer.empty()) return {};
  auto written = m_write(m_at, m_buffer.data(), m_buffer.size());
  m_at += m_buffer.size();
  m_buffer.clear();  // written or lost: a failed write is the caller's error either way
  return written;
}

} // namespace cudnnctl
