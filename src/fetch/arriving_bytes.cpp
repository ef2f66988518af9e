// The bytes of a download as they arrive, waited for by a reader of the growing file (see the header).
#include "cudnnctl/fetch/arriving_bytes.hpp"

namespace cudnnctl {

void ArrivingBytes::report(const ExtentSet& present) {
  std::lock_guard lock(m_mutex);
  for (const auto& [begin, end] : m_present.extents())
    if (!present.covers(begin, end)) m_dropped = true;
  m_present = present;
  m_changed.notify_all();
}

void ArrivingBytes::finish() {
  std::lock_guard lock(m_mutex);
  m_finished = true;
  m_changed.notify_all();
}

bool ArrivingBytes::wait_for(std::uint64_t begin, std::uint64_t end) {
  std::unique_lock lock(m_mutex);
  m_changed.wait(lock, [&] { return m_dropped || m_finished || m_present.covers(begin, end); });
  return !m_dropped && m_present.covers(begin, end);
}

bool ArrivingBytes::dropped() const {
  std::lock_guard lock(m_mutex);
  return m_dropped;
}

} // namespace cudnnctl
