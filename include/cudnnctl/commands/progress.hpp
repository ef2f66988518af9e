#pragma once
// A one-line progress display on standard error, drawn only on a terminal and never with --json.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "cudnnctl/commands/command.hpp"

namespace cudnnctl {

class ProgressLine {
public:
  ProgressLine(Io& io, std::string label, std::uint64_t total);
  ~ProgressLine();
  /// Adds done bytes (any thread); redraws at most ten times a second.
  void add(std::uint64_t bytes);
  void set(std::uint64_t done, std::uint64_t total);
  bool enabled() const { return m_enabled; }

private:
  void draw(std::uint64_t done);
  Io& m_io;
  std::string m_label;
  std::atomic<std::uint64_t> m_total;
  std::atomic<std::uint64_t> m_done{0};
  bool m_enabled;
  std::mutex m_mutex;
  std::chrono::steady_clock::time_point m_last{};
};

} // namespace cudnnctl
