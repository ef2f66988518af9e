#pragma once
// A verdict composed from the pieces a line decodes to (status names, version statements, library files, the
// loader's error, GPU and driver statements, look-alikes): the signature, the other causes it can have, and
// what the line itself says, including what is not known. A message never seen before gets its answer from
// what its pieces mean; explain.cpp's hand-written patterns only cover what pieces cannot tell.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/explain/capability_statement.hpp"
#include "cudnnctl/explain/cuda_errors.hpp"
#include "cudnnctl/explain/gpu_statement.hpp"
#include "cudnnctl/explain/library_mention.hpp"
#include "cudnnctl/explain/loader_error.hpp"
#include "cudnnctl/contract/cudnn_status.hpp"
#include "cudnnctl/explain/version_statement.hpp"
#include "cudnnctl/explain/workload_statement.hpp"

namespace cudnnctl {

struct LinePieces {
  std::vector<CudnnStatus> statuses;
  std::vector<LibraryMention> libraries;
  std::optional<LoaderError> loader;
  std::optional<VersionStatement> version;
  std::optional<GpuStatement> gpu;
  std::optional<WorkloadLookalike> workload;
  std::optional<CapabilityStatement> capability;
  std::vector<CudaErrorMention> cuda_errors;
  bool windows = false;  // the line is from Windows (a .dll, WinError, "error code N")
};

LinePieces decode_pieces(std::string_view line);

struct Verdict {
  std::string_view signature;  // empty: the pieces decide that the line names nothing (not a set-up problem)
  std::vector<std::string_view> also;
  std::string detail;  // what was decoded; "not known: ..." where the pieces stop
  const LibraryMention* library = nullptr;  // the file the verdict is about (points into the pieces), may be null
};

/// The verdict the pieces support, or nullopt when they say nothing a signature follows from.
std::optional<Verdict> verdict_from(const LinePieces& pieces);

} // namespace cudnnctl
