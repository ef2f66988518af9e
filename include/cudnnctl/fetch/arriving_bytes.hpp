#pragma once
// The bytes of a download as they arrive, for a reader of the growing `.part` file on another thread (the
// install's extraction beside the download): the download reports the extents on the disk
// (ParallelDownload::on_extents), the reader waits for the range it needs next. Bytes once reported must
// stay: a report that leaves some out (the download restarted, the file changed on the server) makes every
// later wait fail and `dropped()` true, so that nothing read from them is trusted.
#include <condition_variable>
#include <cstdint>
#include <mutex>

#include "cudnnctl/fetch/range_plan.hpp"

namespace cudnnctl {

class ArrivingBytes {
public:
  /// The download's report: every byte now on the disk.
  void report(const ExtentSet& present);
  /// No more bytes will come (the download ended, either way): a wait for bytes still missing fails.
  void finish();
  /// Blocks until [begin, end) is on the disk (true), or never will be (false: finished without it, or dropped).
  bool wait_for(std::uint64_t begin, std::uint64_t end);
  /// A report left out bytes reported before: what was read may be another file's.
  bool dropped() const;

private:
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  ExtentSet m_present;
  bool m_finished = false;
  bool m_dropped = false;
};

} // namespace cudnnctl
