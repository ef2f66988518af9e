#pragma once
// Which cuDNN releases carry code for which GPU families (data/gpu-architecture-spans.json, sourced): what the
// resolver knows before download about a release the catalog has no support row for.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct ArchitectureSpan {
  std::string family;                      // "Maxwell, Pascal and Volta"
  std::vector<std::string> capabilities;   // "6.1", ...
  std::string first_release;               // inclusive; empty: from the first
  std::string last_release;                // inclusive; empty: to the newest
  std::vector<std::string> cuda_variants;  // empty: every variant
  std::vector<std::string> sources;
};

/// Parses and checks a span table (every span has a family, dotted capabilities, a first or last release, sources).
Result<std::vector<ArchitectureSpan>> parse_architecture_spans(std::string_view json_text, const std::string& origin);
/// The table compiled into this binary.
const std::vector<ArchitectureSpan>& builtin_architecture_spans();

/// Why cuDNN `release` (9.27.0) for CUDA `cuda_variant` has no code for a GPU of compute capability major.minor, or
/// nothing when no span says so.
std::optional<std::string> architecture_span_reason(std::string_view release, std::string_view cuda_variant, unsigned cc_major, unsigned cc_minor,
                                                    const std::vector<ArchitectureSpan>& table = builtin_architecture_spans());

/// What the spans say a GPU of compute capability major.minor needs ("Maxwell, Pascal and Volta GPUs (compute 6.1)
/// need cuDNN 9.10.2 or older"), for a fix; nothing when no span lists it.
std::optional<std::string> architecture_span_advice(unsigned cc_major, unsigned cc_minor,
                                                    const std::vector<ArchitectureSpan>& table = builtin_architecture_spans());

} // namespace cudnnctl
