#pragma once
// Process-level helpers: an exclusive lock file, and the crash hook tests use to kill an install.
#include <cstdint>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::platform {

/// An exclusive advisory lock on a file, released when the object dies or the process ends (even by kill).
class FileLock {
public:
  /// Fails at once (no waiting) when another process holds the lock.
  static Result<FileLock> acquire(const std::string& path);
  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock();

private:
  explicit FileLock(std::intptr_t handle) : m_handle(handle) {}
  std::intptr_t m_handle = -1;
};

/// While one lives, Ctrl-C, SIGTERM and SIGHUP (Windows: Ctrl-C, Ctrl-Break, console close) do not end
/// the process: they are noted, and the code that holds the guard asks `caught()` between its steps and
/// stops cleanly (an install rolls back). Guards nest; the outermost one restores the previous handlers.
class InterruptGuard {
public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  /// The signal number noted since the outermost guard was made (SIGINT, SIGTERM, ...); 0 when none.
  static int caught();
  /// Test seam: delivers `signal_number` to this process now (as a user pressing Ctrl-C would).
  static void deliver(int signal_number);
};

/// Ends this process at once, as a crash or `kill -9` would (no clean-up, no destructors).
[[noreturn]] void kill_self();

/// Runs a program (no shell; a bare name is looked up on PATH) and returns its standard output; an error
/// when it cannot start, fails, or runs past `timeout_ms` (then it is killed). The one runner with
/// run_child (platform/dynlib.hpp), which it uses.
Result<std::string> run_capture(const std::vector<std::string>& argv, int timeout_ms = 60000);

/// True when this process may change system-wide settings (root on Linux, elevated on Windows).
bool is_privileged();

/// The current time as ISO 8601 UTC, e.g. 2026-12-02T17:45:00Z.
std::string utc_now();

/// A short id unique enough for staging and backup folder names (time and process id).
std::string unique_id();

} // namespace cudnnctl::platform
