#include "cudnnctl/explain/workload_statement.hpp"

#include <string>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

bool workload_says(const std::string& lower, std::string_view piece) { return lower.find(piece) != std::string::npos; }

} // namespace

std::optional<WorkloadLookalike> workload_lookalike_in(std::string_view text) {
  const auto lower = to_lower_ascii(text);
  // cuDNN's RNN backward needs its training-mode forward's reserve space: PyTorch says "can only be called in
  // training mode" (cudnn RNN backward, backward_input, backward_weight).
  if (workload_says(lower, "can only be called in training mode")) return WorkloadLookalike::rnn_backward_in_eval;
  // PyTorch tries every algorithm and reports this when each one's workspace failed to allocate.
  if (workload_says(lower, "find a valid cudnn algorithm") || workload_says(lower, "no valid convolution algorithms available"))
    return WorkloadLookalike::out_of_memory;
  // An out-of-memory report only counts when it is about a cuDNN call (a plain "CUDA out of memory" is no cuDNN matter).
  if (workload_says(lower, "cudnn") && (workload_says(lower, "out of memory") || workload_says(lower, "ran out of memory")))
    return WorkloadLookalike::out_of_memory;
  // A status whose own text names its cause: an input of a layout the call does not take.
  if (workload_says(lower, "non-contiguous input") || workload_says(lower, "input is not contiguous"))
    return WorkloadLookalike::bad_input;
  return std::nullopt;
}

} // namespace cudnnctl
