#include "cudnnctl/install/gpu_code_gate.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/catalog/architecture_spans.hpp"
#include "cudnnctl/loader/library_files.hpp"

namespace cudnnctl {

namespace {

struct StagedCode {
  std::string name;
  GpuCode code;
};

// The staged libraries that carry GPU code (an unreadable one or one without fat binaries is no gap here).
std::vector<StagedCode> staged_code(const std::string& folder) {
  std::vector<StagedCode> out;
  for (auto& lib : read_folder_gpu_code(folder))
    if (lib.code && !lib.code->entries.empty()) out.push_back({std::string(base_name(lib.path)), std::move(*lib.code)});
  return out;
}

std::string arch_names(const GpuCode& code) {
  std::vector<std::string> names;
  for (const auto& a : code.sass()) names.push_back(sass_name(a));
  for (const auto& a : code.ptx()) names.push_back(ptx_name(a));
  return fmt::format("{}", fmt::join(names, " "));
}

} // namespace

Result<void> check_gpu_code_for_devices(const std::string& folder, const std::vector<GpuDevice>& devices, const std::string& archive) {
  if (devices.empty()) return {};
  const auto libs = staged_code(folder);
  std::vector<std::string> gaps, wanted, advice;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    const auto& d = devices[i];
    std::vector<std::string> missing;
    for (const auto& l : libs)
      if (code_fit(l.code.sass(), l.code.ptx(), d.cc).kind == CodeFit::Kind::none) missing.push_back(l.name);
    if (missing.empty()) continue;
    const auto& example = *std::find_if(libs.begin(), libs.end(), [&](const StagedCode& l) { return l.name == missing.front(); });
    gaps.push_back(fmt::format("GPU {} {} (compute {}) has no code in {} (it carries {})", i, d.name, cc_text(d.cc), fmt::join(missing, ", "),
                               arch_names(example.code)));
    wanted.push_back(cc_sm_name(d.cc));
    if (auto a = architecture_span_advice(d.cc.major, d.cc.minor); a && std::find(advice.begin(), advice.end(), *a) == advice.end())
      advice.push_back(std::move(*a));
  }
  if (gaps.empty()) return {};
  return fail(ErrorCode::no_gpu_code, fmt::format("'{}' has no GPU code for this machine: {}", archive, fmt::join(gaps, "; ")),
              fmt::format("install a release built for {} (`cudnnctl gpu-code <library>` lists a library's architectures{}); --force "
                          "installs anyway (for another machine), but cuDNN will fail on these GPUs",
                          fmt::join(wanted, ", "), advice.empty() ? std::string() : fmt::format("; {}", fmt::join(advice, "; "))),
              archive);
}

} // namespace cudnnctl
