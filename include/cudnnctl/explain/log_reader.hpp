#pragma once
// A whole log read line by line, the first error first: the matches of each line (explain_line), folded to their
// causes (log_fold.hpp), with two things only the lines around a message can tell:
//   - a CUDA out of memory alone is no set-up matter and is not named; when a cuDNN or CUDA error follows it, it
//     is the root and that error its collateral (cuDNN's INTERNAL_ERROR after an OOM is the OOM);
//   - a vague driver message (cuInit's CUDA_ERROR_NO_DEVICE) waits a few lines for the one that names its cause
//     (TensorFlow's "kernel driver does not appear to be running"), which then stands in its place.
// The command streams what feed() returns; finish() returns what was still waiting at the end of the log.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "cudnnctl/explain/explain.hpp"
#include "cudnnctl/explain/log_fold.hpp"

namespace cudnnctl {

class LogReader {
public:
  std::vector<ExplainMatch> feed(std::string_view line, std::size_t line_no);
  std::vector<ExplainMatch> finish();
  const CauseFolder& folder() const { return folder_; }

private:
  void emit(ExplainMatch m, std::vector<ExplainMatch>& out);
  std::optional<ExplainMatch> held_root_;   // a plain out of memory, reported only if an error follows
  std::optional<ExplainMatch> held_vague_;  // a vague driver message, waiting for the line that names its cause
  std::size_t vague_until_ = 0;             // the last line that may refine it
  CauseFolder folder_;
};

/// A plain out-of-memory line ("CUDA out of memory", cudaErrorMemoryAllocation): not named alone, the root of the
/// errors after it.
std::optional<ExplainMatch> out_of_memory_root(std::string_view line, std::size_t line_no);

} // namespace cudnnctl
