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
