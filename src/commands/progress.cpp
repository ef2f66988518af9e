#include "cudnnctl/commands/progress.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include <fmt/format.h>

namespace cudnnctl {

namespace {

constexpr std::size_t k_bar = 20;
constexpr const char* k_green = "\033[32m";
constexpr const char* k_reset = "\033[0m";

// characters on screen: the escapes of the colour take none
std::size_t visible_length(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\033') {
      while (i < s.size() && s[i] != 'm') ++i;
      continue;
    }
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++n;  // one per UTF-8 character
  }
  return n;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

std::string human_bytes(std::uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (bytes < 1024) return fmt::format("{} B", bytes);
  if (bytes < (std::uint64_t{1} << 20)) return fmt::format("{:.1f} KiB", b / 1024.0);
  if (bytes < (std::uint64_t{1} << 30)) return fmt::format("{:.1f} MiB", b / 1048576.0);
  return fmt::format("{:.2f} GiB", b / 1073741824.0);
}

std::string human_duration(double seconds) {
  const auto s = static_cast<std::uint64_t>(std::llround(std::max(0.0, seconds)));
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string progress_text(std::string_view label, std::uint64_t done, std::uint64_t total, double seconds, bool color) {
  const double rate = seconds > 0.2 ? static_cast<double>(done) / seconds : 0.0;
  const std::string speed = rate > 0 ? fmt::format("  {}/s", human_bytes(static_cast<std::uint64_t>(rate))) : std::string();
  if (total == 0) return fmt::format("{:<11} {}{}", label, human_bytes(done), speed);
  done = std::min(done, total);
  // floor: 100% only when all of it is done
  const auto pct = static_cast<unsigned>(done * 100 / total);
  const auto filled = static_cast<std::size_t>(done * k_bar / total);
  const std::string bar = std::string(filled, '#');
  const std::string rest(k_bar - filled, '-');
  const std::string left = rate > 0 && done < total
                               ? fmt::format("  {} left", human_duration(static_cast<double>(total - done) / rate))
                               : std::string();
  return fmt::format("{:<11} {:>3}% [{}{}{}{}] {} / {}{}{}", label, pct, color ? k_green : "", bar, color ? k_reset : "", rest,
                     human_bytes(done), human_bytes(total), speed, left);
}

std::string progress_final_text(std::string_view label, std::uint64_t done, double seconds, bool color) {
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
  return fmt::format("{:<11} {}100%{} [{}{}{}] {} in {} ({}/s)", label, color ? k_green : "", color ? k_reset : "",
                     color ? k_green : "", std::string(k_bar, '#'), color ? k_reset : "", human_bytes(done),
                     seconds < 10 ? fmt::format("{:.1f}s", seconds) : human_duration(seconds),
                     human_bytes(static_cast<std::uint64_t>(rate)));
}

ProgressLine::ProgressLine(Io& io, std::string label, std::uint64_t total)
    : m_io(io), m_label(std::move(label)), m_total(total), m_enabled(io.err_is_tty && !io.json) {}

ProgressLine::~ProgressLine() {
  if (!m_enabled || m_finished || m_width == 0) return;
  m_io.progress_stream() << '\r' << std::string(m_width, ' ') << '\r' << std::flush;  // an error follows: start it on a clean line
}

void ProgressLine::set_total(std::uint64_t total) {
  if (!m_enabled) return;
  m_total.store(total);
  draw(false);
}

void ProgressLine::add(std::uint64_t bytes) {
  if (!m_enabled) return;
  m_done.fetch_add(bytes);
  draw(false);
}

void ProgressLine::set(std::uint64_t done, std::uint64_t total) {
  if (!m_enabled) return;
  if (total) m_total.store(total);
  m_done.store(done);
  draw(false);
}

void ProgressLine::finish() {
  if (!m_enabled || m_finished) return;
  std::lock_guard lock(m_mutex);
  m_finished = true;
  const auto done = std::max({m_done.load(), m_total.load(), m_shown});
  put(progress_final_text(m_label, done, seconds_since(m_start), m_io.err_color));
  m_io.progress_stream() << '\n' << std::flush;
}

std::function<void(std::uint64_t)> ProgressLine::adder() {
  if (!m_enabled) return {};
  return [this](std::uint64_t n) { add(n); };
}

std::function<void(std::uint64_t)> ProgressLine::total_setter() {
  if (!m_enabled) return {};
  return [this](std::uint64_t n) { set_total(n); };
}

std::function<void(std::uint64_t, std::uint64_t)> ProgressLine::setter() {
  if (!m_enabled) return {};
  return [this](std::uint64_t done, std::uint64_t total) { set(done, total); };
}

void ProgressLine::draw(bool force) {
  std::unique_lock lock(m_mutex, std::try_to_lock);  // another thread is drawing: this count shows next time
  if (!lock.owns_lock() || m_finished) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && m_width != 0 && now - m_last < std::chrono::milliseconds(100)) return;
  m_last = now;
  m_shown = std::max(m_shown, m_done.load());  // read under the lock: a late thread cannot draw an older count
  put(progress_text(m_label, m_shown, m_total.load(), seconds_since(m_start), m_io.err_color));
}

void ProgressLine::put(const std::string& text) {
  const auto width = visible_length(text);
  m_io.progress_stream() << '\r' << text;
  if (width < m_width) m_io.progress_stream() << std::string(m_width - width, ' ');
  m_io.progress_stream() << std::flush;
  m_width = std::max(m_width, width);
}

} // namespace cudnnctl
