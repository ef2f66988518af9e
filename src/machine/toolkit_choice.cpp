#include "cudnnctl/machine/toolkit_choice.hpp"

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"

namespace cudnnctl {

Result<Toolkit> read_cuda_path(const std::string& cuda_path) {
  auto t = read_toolkit(cuda_path, "--cuda-path");
  if (!t)
    return fail(ErrorCode::input_invalid, fmt::format("--cuda-path '{}' is not a CUDA toolkit: {}", cuda_path, t.error().message),
                "name the toolkit's root folder (it holds include/cuda.h), or leave --cuda-path out to use the one the environment names",
                cuda_path);
  return t;
}

Result<Toolkit> choose_from_survey(const ToolkitSurvey& survey, const std::optional<std::string>& cuda_major, std::string& reason) {
  auto choice = choose_toolkit(survey.found, cuda_major);
  for (const auto& n : survey.notes) log::debug("toolkit: {}", n);
  log::info("toolkit: {} of {} found: {}", choice.toolkit ? "chose" : "none", survey.found.size(), choice.reason);
  if (!choice.toolkit) {
    std::string detail = choice.reason;
    for (const auto& n : survey.notes) detail += "; " + n;
    // only a command with an archive has a CUDA major to ask for (install): the others ask for any toolkit
    return fail(ErrorCode::file_not_found, fmt::format("no suitable CUDA toolkit: {}", detail),
                cuda_major ? fmt::format("install a CUDA {}.x toolkit (the archive is built for it), or name one with --cuda-path DIR", *cuda_major)
                           : std::string("install the CUDA toolkit, or name its folder with --cuda-path DIR (or CUDA_PATH)"));
  }
  reason = choice.reason;
  return *choice.toolkit;
}

} // namespace cudnnctl
