#include "cudnnctl/explain/gpu_statement.hpp"

#include <regex>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

bool gpu_says(const std::string& lower, std::string_view piece) { return lower.find(piece) != std::string::npos; }

// "sm_86" -> "8.6", "capability 6.1" / "capability: 61" -> "6.1", "compute_75" -> "7.5".
std::string capability_in(const std::string& line) {
  static const std::regex sm(R"(\b(?:sm|compute)_([0-9]{2,3})[a-z]?\b)", std::regex::icase);
  static const std::regex cap(R"(capability(?: is)?:?\s*([0-9]+)(?:\.([0-9]+))?)", std::regex::icase);
  std::smatch m;
  if (std::regex_search(line, m, cap)) {
    const auto a = m[1].str();
    if (m[2].matched) return fmt::format("{}.{}", a, m[2].str());
    if (a.size() >= 2) return fmt::format("{}.{}", a.substr(0, a.size() - 1), a.back());
  }
  if (std::regex_search(line, m, sm)) {
    const auto a = m[1].str();
    return fmt::format("{}.{}", a.substr(0, a.size() - 1), a.back());
  }
  return {};
}

} // namespace

std::optional<GpuStatement> gpu_statement_in(std::string_view text) {
  const std::string line(text);
  const auto lower = to_lower_ascii(line);
  GpuStatement g;
  g.no_kernel_image = gpu_says(lower, "no kernel image is available") || gpu_says(lower, "cudaerrornokernelimagefordevice") ||
                      gpu_says(lower, "no_binary_for_gpu");
  g.cudnn_named = gpu_says(lower, "cudnn");
  g.arch_not_supported = gpu_says(lower, "is not compatible with the current pytorch installation") ||
                         gpu_says(lower, "minimum cuda capability supported by this library");
  g.driver_missing = gpu_says(lower, "found no nvidia driver") || gpu_says(lower, "no cuda-capable device is detected");
  g.driver_insufficient = gpu_says(lower, "driver version is insufficient");
  g.capability = capability_in(line);
  if (!g.no_kernel_image && !g.arch_not_supported && !g.driver_missing && !g.driver_insufficient) return std::nullopt;
  return g;
}

} // namespace cudnnctl
