#pragma once
// Messages that look like cuDNN set-up failures and are not: out of memory behind a cuDNN call ("Unable to find
// a valid cuDNN algorithm", "no valid convolution algorithms available in CuDNN", an allocation failure) and an
// RNN backward in eval mode, and a status whose own text names a bad input (PyTorch's "This error may appear if you
// passed in a non-contiguous input"). Each is recognised by what it says happened, not by one release's wording.
#include <optional>
#include <string_view>

namespace cudnnctl {

enum class WorkloadLookalike { out_of_memory, rnn_backward_in_eval, bad_input };

std::optional<WorkloadLookalike> workload_lookalike_in(std::string_view line);

} // namespace cudnnctl
