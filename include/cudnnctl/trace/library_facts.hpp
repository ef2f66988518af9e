#pragma once
// The trace's view of files on this machine: a library's version (file name, PE version resource, the wheel
// RECORD that lists it with its size, cudnn_version.h, else the SONAME), whether a cudnnctl receipt lists it,
// and the other copies of the same file name along the loader's search order and in the usual places.
#include <string>

#include "cudnnctl/platform/environment.hpp"
#include "cudnnctl/trace/trace.hpp"

namespace cudnnctl {

LibraryFacts describe_library_file(const std::string& path);

/// The seams of build_trace_report over this machine's files; `env` is the environment the command ran with.
TraceSeams real_trace_seams(const platform::Environment& env);

} // namespace cudnnctl
