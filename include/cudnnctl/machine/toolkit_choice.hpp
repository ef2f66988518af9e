#pragma once
// Which CUDA toolkit a command works on: --cuda-path when given, else one of those the environment names (env/toolkit's
// find_toolkits: CUDA_PATH, CUDA_HOME, nvcc on PATH, the default folders). The run's Machine surveys the environment once
// (machine.hpp: Machine::toolkits) and every reader (install's resolver and gate, fetch, path, the doctor) chooses from it.
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/env/toolkit.hpp"

namespace cudnnctl {

/// The toolkits an environment names, in precedence order, and the names that are not toolkits (in words).
struct ToolkitSurvey {
  std::vector<Toolkit> found;
  std::vector<std::string> notes;
};

/// The toolkit --cuda-path names. A path that is not a toolkit's root (missing, a file, a folder without
/// version.json, version.txt or include/cuda.h) is one error from every command that takes the option:
/// `input.invalid`, exit 2 (a file named on the command line that is not what the option needs).
Result<Toolkit> read_cuda_path(const std::string& cuda_path);

/// The toolkit to use from `survey` (the environment's): the first one whose CUDA major is `cuda_major` (when given),
/// else the first one; the reason goes to `reason`. None: `file.not-found` with what was looked at.
Result<Toolkit> choose_from_survey(const ToolkitSurvey& survey, const std::optional<std::string>& cuda_major, std::string& reason);

} // namespace cudnnctl
