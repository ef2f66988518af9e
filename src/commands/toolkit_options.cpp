#include "cudnnctl/commands/toolkit_options.hpp"

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

Result<Toolkit> read_cuda_path(const std::string& cuda_path) {
  auto t = read_toolkit(cuda_path, "--cuda-path");
  if (!t)
    return fail(ErrorCode::input_invalid, fmt::format("--cuda-path '{}' is not a CUDA toolkit: {}", cuda_path, t.error().message),
                "name the toolkit's root folder (it holds include/cuda.h), or leave --cuda-path out to use the one the environment names",
                cuda_path);
  return t;
}

Result<Toolkit> select_toolkit(const std::string& cuda_path, const std::optional<std::string>& cuda_major, std::string& reason) {
  if (!cuda_path.empty()) {
    CUDNNCTL_TRY_ASSIGN(auto t, read_cuda_path(cuda_path));
    reason = fmt::format("{} (CUDA {}) because --cuda-path names it", t.root, t.version);
    log::info("toolkit: {}", reason);
    return t;
  }
  platform::ProcessEnvironment env;
  std::vector<std::string> notes;
  const auto found = find_toolkits(env, std::nullopt, &notes);
  auto choice = choose_toolkit(found, cuda_major);
  for (const auto& n : notes) log::debug("toolkit: {}", n);
  log::info("toolkit: {} of {} found: {}", choice.toolkit ? "chose" : "none", found.size(), choice.reason);
  if (!choice.toolkit) {
    std::string detail = choice.reason;
    for (const auto& n : notes) detail += "; " + n;
    // only a command with an archive has a CUDA major to ask for (install): the others ask for any toolkit
    return fail(ErrorCode::file_not_found, fmt::format("no suitable CUDA toolkit: {}", detail),
                cuda_major ? fmt::format("install a CUDA {}.x toolkit (the archive is built for it), or name one with --cuda-path DIR", *cuda_major)
                           : std::string("install the CUDA toolkit, or name its folder with --cuda-path DIR (or CUDA_PATH)"));
  }
  reason = choice.reason;
  return *choice.toolkit;
}

} // namespace cudnnctl
