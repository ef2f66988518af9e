#pragma once
// Choosing the CUDA toolkit a command works on (--cuda-path, else the environment).
#include <optional>
#include <string>

#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/env/toolkit.hpp"

namespace cudnnctl {

/// The toolkit to use: --cuda-path when given (it must be a toolkit), else the first one found whose CUDA
/// major is `cuda_major` (when given), else the first one found. The reason goes to `reason`.
Result<Toolkit> select_toolkit(const std::string& cuda_path, const std::optional<std::string>& cuda_major, std::string& reason);

} // namespace cudnnctl
