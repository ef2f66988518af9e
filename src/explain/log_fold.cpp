#include "cudnnctl/explain/log_fold.hpp"

#include <algorithm>

namespace cudnnctl {

namespace {

constexpr std::size_t k_max_causes = 64;

// Messages that report the effect of an earlier failure rather than a cause of their own: a call into a library
// that failed to load, a framework's summary after its loader failed, a handle that could not be created.
bool is_consequence(std::string_view id) {
  static constexpr std::string_view ids[] = {"loader.load.aborted", "loader.tf-cannot-dlopen", "framework.cudnn-not-found", "device.create",
                                             "workload.failed-layers", "workload.cudnn-status", "loader.version_checks"};
  return std::find(std::begin(ids), std::end(ids), id) != std::end(ids);
}

// The first errors of a log that make the driver's and cuDNN's errors after them consequences: a kernel that
// faulted (CUDA reports it at the next call, often inside cuDNN) and memory that ran out.
bool is_root_error(std::string_view id) { return id == "workload.kernel-fault" || id == "workload.out-of-memory"; }

} // namespace

void CauseFolder::fold(ExplainMatch& m) {
  if (m.signature->harmless) return;
  for (const auto& c : causes_) {
    const bool after_root = is_root_error(c.signature->id) && m.signature->layer >= 4;  // the first error wins
    const bool same = after_root || c.signature == m.signature || (!m.library.empty() && m.library == c.library);
    const bool listed = std::find(c.also.begin(), c.also.end(), m.signature) != c.also.end();
    if (same || listed || is_consequence(m.signature->id)) {
      m.folded_under = c.line;
      return;
    }
  }
  ++count_;
  if (causes_.size() < k_max_causes) causes_.push_back({m.line, m.signature, m.also, m.library});
}

} // namespace cudnnctl
