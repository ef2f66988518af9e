#pragma once
// The one progress reporter of the long operations (verify, extract, install, fetch; bundle swap and
// restore too): one line on standard error, redrawn in place at most ten times a second, with the
// percentage of a total known up front, the bytes, the rate and the time left, and one final line when
// the operation is done. It draws only on a live terminal (Io::err_is_tty) and never with --json; in a
// pipe, a file or a CI log it writes nothing at all, so the command's own summary is the one line there.
// Colour only with Io::err_color (NO_COLOR unset, escapes understood); the line is erased with '\r' and
// spaces, never with escapes, so an old Windows console shows no stray characters.
//
// Use:
//   ProgressLine progress(io, "installing", total_bytes);   // total 0: unknown until set_total()
//   options.on_bytes = progress.adder();                    // any thread, as the work is done
//   ... run ...; progress.finish();                         // on success: the final line
// Leaving the scope without finish() (an error) erases the line so that the error starts clean.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "cudnnctl/commands/command.hpp"

namespace cudnnctl {

/// "312.5 MiB", "1.21 GiB", "512 B".
std::string human_bytes(std::uint64_t bytes);
/// "7s", "1m05s", "2h03m".
std::string human_duration(double seconds);
/// The live line for `done` of `total` (0: unknown) after `seconds`.
std::string progress_text(std::string_view label, std::uint64_t done, std::uint64_t total, double seconds, bool color);
/// The final line: what was done, in how long, how fast.
std::string progress_final_text(std::string_view label, std::uint64_t done, double seconds, bool color);

class ProgressLine {
public:
  ProgressLine(Io& io, std::string label, std::uint64_t total = 0);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// The total, when it is learnt after construction (a zip's central directory, a download's length).
  void set_total(std::uint64_t total);
  /// Adds done bytes (any thread); redraws at most ten times a second.
  void add(std::uint64_t bytes);
  /// Sets the bytes done and the total (a total of 0 keeps the one known).
  void set(std::uint64_t done, std::uint64_t total);
  /// The operation succeeded: draws the final line (100% of the total) and ends it.
  void finish();
  bool enabled() const { return m_enabled; }
  /// Callbacks for the layers below, empty when nothing is drawn (so they cost nothing then).
  std::function<void(std::uint64_t)> adder();
  std::function<void(std::uint64_t)> total_setter();
  std::function<void(std::uint64_t, std::uint64_t)> setter();

private:
  void draw(bool force);
  void put(const std::string& text);
  Io& m_io;
  std::string m_label;
  std::atomic<std::uint64_t> m_total;
  std::atomic<std::uint64_t> m_done{0};
  bool m_enabled;
  bool m_finished = false;
  std::mutex m_mutex;
  std::uint64_t m_shown = 0;      // the largest count drawn: the line never goes backwards
  std::size_t m_width = 0;        // the length of the line on screen, to erase what a shorter one leaves
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point m_last{};
};

} // namespace cudnnctl
