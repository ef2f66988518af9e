#include "cudnnctl/commands/progress.hpp"

#include <ostream>

#include <fmt/format.h>

namespace cudnnctl {

ProgressLine::ProgressLine(Io& io, std::string label, std::uint64_t total)
    : m_io(io), m_label(std::move(label)), m_total(total), m_enabled(io.err_is_tty && !io.json) {}

ProgressLine::~ProgressLine() {
  if (m_enabled) m_io.err << "\r\033[K" << std::flush;
}

void ProgressLine::add(std::uint64_t bytes) {
  if (!m_enabled) return;
  draw(m_done.fetch_add(bytes) + bytes);
}

void ProgressLine::set(std::uint64_t done, std::uint64_t total) {
  if (!m_enabled) return;
  m_total.store(total);
  m_done.store(done);
  draw(done);
}

void ProgressLine::draw(std::uint64_t done) {
  std::unique_lock lock(m_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - m_last < std::chrono::milliseconds(100)) return;
  m_last = now;
  const auto total = m_total.load();
  const double pct = total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 0.0;
  m_io.err << fmt::format("\r\033[K{} {:5.1f}% ({} / {} MiB)", m_label, pct, done >> 20, total >> 20) << std::flush;
}

} // namespace cudnnctl
