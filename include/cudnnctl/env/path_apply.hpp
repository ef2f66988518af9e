#pragma once
// `path --apply`: the one domain call behind it. Linux writes ld.so.conf.d and runs ldconfig (ld_conf.hpp);
// Windows writes PATH (the toolkit's folder first, type kept, never cut) and CUDNN_PATH to the registry of
// the chosen scope and tells running programs.
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/env/path_report.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

enum class PathScope { process, user, machine };

struct PathApplied {
  std::string summary;        // what was done, in words
  std::string registry_diff;  // Windows: the PATH change, as diff_lines
};

Result<PathApplied> apply_loader_path(const Toolkit& toolkit, const PathReport& report, PathScope scope, const std::string& system_root,
                                      const platform::Environment& env);

/// Windows: PATH as a program started from now on gets it (what Explorer builds a new environment from): the
/// machine's registry PATH, then the user's, each with its %VARIABLES% expanded from `env`. An error where there
/// is no registry (Linux).
Result<std::string> new_process_path(const platform::Environment& env);

} // namespace cudnnctl
