#pragma once
// The channel between cudnnctl and the child processes it runs itself as (`__probe`, `__workload`):
// the child prints one JSON document a line, each with a "step", flushed at once, so that whatever it
// learnt before a crash or a hang reaches the parent; the parent runs the child with a time limit and
// reads the lines back. Shared by the doctor's probe and the GPU workload. The child's log (-v) never
// goes to stdout: it is written to the parent's --log-file, or relayed through its stderr.
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// The child's side: one line a step.
class ChildChannel {
public:
  explicit ChildChannel(std::ostream& out) : m_out(out) {}
  /// `fields` (an object) with "step": `step` added, as one flushed line.
  void emit(std::string_view step, nlohmann::json fields);
  /// A step with nothing more to say.
  void emit(std::string_view step);

private:
  std::ostream& m_out;
};

/// The JSON lines a child process printed, one document a line; lines that do not parse (a crash's
/// half-written output) are skipped.
std::vector<nlohmann::json> read_json_lines(const std::string& text);

/// The parent's side: what the child printed, step by step, and how it ended.
struct ChildSteps {
  std::vector<nlohmann::json> steps;
  int signal = 0;           // the signal that ended it, 0 if none
  bool timed_out = false;
  std::string err;          // its stderr, the last 4000 characters
};

/// The options that make a child cudnnctl log as this process does: one -v per level, and the same
/// --log-file (appended to), and --log-to-parent (its stderr relayed into this log, without a file or when
/// the child cannot append to it). None when the log is off.
std::vector<std::string> child_log_options();

/// Runs `argv` (cudnnctl and a hidden command) with a time limit and reads its JSON lines; the child
/// logs with this process (child_log_options), its log lines taken out of `err`.
Result<ChildSteps> run_child_steps(const std::vector<std::string>& argv, int timeout_ms);

} // namespace cudnnctl
