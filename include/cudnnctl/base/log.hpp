#pragma once
// The developer log behind -v/--verbose and --log-file: what the tool decided and every outside call it
// made (files read, processes run, libraries loaded, HTTP requests), with the time each phase took.
// It never carries user output: it goes to stderr or to the --log-file, never to stdout, so --json stays
// one document. Off unless a log::Session is running. Only log.cpp includes spdlog; the rest of the code
// includes this header and pays for a message only when its level is on.
#include <chrono>
#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::log {

/// How much is written. info (-v): decisions and phase timings. debug (-vv): also every outside call.
/// trace (-vvv): also per-item detail (each archive member, each candidate path).
enum class Level { off = 0, info = 1, debug = 2, trace = 3 };

/// The level for a count of -v flags (0 → off, 1 → info, 2 → debug, 3 or more → trace).
Level level_for_verbosity(int count);

/// True when messages at `level` are written (one relaxed atomic load).
bool enabled(Level level) noexcept;

/// Writes one message at `level`; callers use info()/debug()/trace(), which format only when enabled.
void write(Level level, std::string_view message);

template <class... Args> void info(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::info)) write(Level::info, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args> void debug(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::debug)) write(Level::debug, fmt::format(f, std::forward<Args>(args)...));
}
template <class... Args> void trace(fmt::format_string<Args...> f, Args&&... args) {
  if (enabled(Level::trace)) write(Level::trace, fmt::format(f, std::forward<Args>(args)...));
}

/// A running log: from start() until it is destroyed, messages at `level` and above go to `file`
/// (appended; created if missing) or, when `file` is empty, to `err`. One session at a time; the
/// program starts one per run (app/run_cli). Without a session nothing is written.
class Session {
public:
  /// Fails with ErrorCode::io (and nothing logged) when `file` cannot be opened for appending.
  static Result<Session> start(Level level, const std::string& file, std::ostream& err);
  /// The log of a child process (cudnnctl run as its own child, `__probe`, `__workload`) whose parent
  /// logs to stderr: each message goes to `err` as one relay line ("cudnnctl-log:<level>:<time> <text>"),
  /// which the parent tells apart from the rest of the child's stderr (relay_child_log).
  /// A message of several lines goes as as many relay lines.
  static Result<Session> start_for_parent(Level level, std::ostream& err);
  Session(Session&& other) noexcept : m_active(std::exchange(other.m_active, false)) {}
  Session& operator=(Session&&) = delete;
  ~Session();

private:
  Session() = default;
  static Session active();
  bool m_active = false;
};

/// Times one phase of the work: logs "phase <name>: <ms> ms" at info level when it goes out of scope
/// (or at end()), and "phase <name>: start" at debug level when it begins.
class Phase {
public:
  explicit Phase(std::string name);
  Phase(const Phase&) = delete;
  Phase& operator=(const Phase&) = delete;
  ~Phase() { end(); }
  /// Ends the phase now (idempotent).
  void end();

private:
  std::string m_name;
  std::chrono::steady_clock::time_point m_start;
  bool m_done = false;
};

/// The running session's level (off when none) and its file (empty when it writes to a stream).
Level current_level() noexcept;
std::string current_file();

/// The relay lines in a child's stderr (Session::start_for_parent) written into this process's log at
/// their level, each as "<who> [<the child's time>]: <text>"; returns the rest of the stderr as it was.
std::string relay_child_log(std::string_view child_stderr, std::string_view who);

/// "12.3 ms": milliseconds since `start`, for messages that report a duration themselves.
std::string elapsed_ms(std::chrono::steady_clock::time_point start);

/// Joins an argv for a log line, quoting arguments that contain spaces.
std::string command_line(const std::vector<std::string>& argv);

} // namespace cudnnctl::log
