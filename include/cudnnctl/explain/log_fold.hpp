#pragma once
// A whole log folded to its causes: a later message that follows from an earlier cause (the same signature, a
// cause the earlier one lists among the things it can also be, the same library file, or a consequence such as
// "Invalid handle. Cannot load symbol" or "DNN library initialization failed") is folded under that cause's line.
// The first error wins: after a kernel fault or an out of memory, the driver, device and cuDNN errors that follow
// are its collateral.
// Fed in line order, so a streaming reader folds as it goes; memory is bounded (64 causes are kept).
#include <cstddef>
#include <string>
#include <vector>

#include "cudnnctl/explain/explain.hpp"

namespace cudnnctl {

class CauseFolder {
public:
  /// Sets m.folded_under to an earlier cause's line, or records m as a cause. Harmless messages are neither.
  void fold(ExplainMatch& m);
  /// The line of the first cause (0: no actionable message yet).
  std::size_t first_cause() const { return causes_.empty() ? 0 : causes_.front().line; }
  std::size_t cause_count() const { return count_; }

private:
  struct Cause {
    std::size_t line;
    const Signature* signature;
    std::vector<const Signature*> also;
    std::string library;
  };
  std::vector<Cause> causes_;
  std::size_t count_ = 0;
};

} // namespace cudnnctl
