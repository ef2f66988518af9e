#pragma once
// Choosing the CUDA toolkit a command works on (--cuda-path, else the environment).
#include <optional>
#include <string>

#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/env/toolkit.hpp"

namespace cudnnctl {

/// The toolkit --cuda-path names. A path that is not a toolkit's root (missing, a file, a folder without
/// version.json, version.txt or include/cuda.h) is one error from every command that takes the option:
/// `input.invalid`, exit 2 (a file named on the command line that is not what the option needs).
Result<Toolkit> read_cuda_path(const std::string& cuda_path);

/// The toolkit to use: --cuda-path when given (it must be a toolkit), else the first one found whose CUDA
/// major is `cuda_major` (when given), else the first one found. The reason goes to `reason`.
Result<Toolkit> select_toolkit(const std::string& cuda_path, const std::optional<std::string>& cuda_major, std::string& reason);

} // namespace cudnnctl
