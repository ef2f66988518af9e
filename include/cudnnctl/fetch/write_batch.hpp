#pragma once
// Bytes that arrive in small pieces (libcurl hands a write callback at most 16 KiB), gathered and written
// at their place in the file in larger ones: a download over eight connections into one file otherwise
// makes tens of thousands of positional writes, each taking the file's inode lock against the others'.
// Held bytes are also written once they have waited `max_age`, so a slow connection's bytes still reach
// the file (and its sidecar, and a reader of the growing file) within a fraction of a second.
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

class WriteBatch {
public:
  /// Writes `n` bytes at `at`; called with at most `capacity` bytes at a time, in the order they came.
  using Writer = std::function<Result<void>(std::uint64_t at, const char* data, std::size_t n)>;
  WriteBatch(std::size_t capacity, std::chrono::steady_clock::duration max_age, Writer write);

  /// Takes `n` bytes that belong at `at`. Bytes that do not follow the ones held are written after those;
  /// a full batch, or one whose first byte came `max_age` ago or more, is written at once. An error of the
  /// writer comes back here (the bytes held are then lost).
  Result<void> add(std::uint64_t at, const char* data, std::size_t n);
  /// Writes what is held (nothing held: nothing written).
  Result<void> flush();
  std::size_t held() const { return m_buffer.size(); }

private:
  std::size_t m_capacity;
  std::chrono::steady_clock::duration m_max_age;
  std::chrono::steady_clock::time_point m_since;  // when the first held byte came
  Writer m_write;
  std::vector<char> m_buffer;
  std::uint64_t m_at = 0;  // where the held bytes belong
};

} // namespace cudnnctl
