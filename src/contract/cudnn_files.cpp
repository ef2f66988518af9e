#include "cudnnctl/contract/cudnn_files.hpp"

#include "cudnnctl/base/strings.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

namespace cudnnctl {

std::string CudnnHeaderVersion::text() const { return fmt::format("{}.{}.{}", major, minor, patch); }

std::optional<CudnnHeaderVersion> parse_version_header(std::string_view text) {
  const std::string s(text);
  auto get = [&](const char* macro) -> std::optional<unsigned> {
    std::smatch m;
    if (!std::regex_search(s, m, std::regex(std::string(R"((?:^|\n)\s*#\s*define\s+)") + macro + R"(\s+(\d{1,6})\b)"))) return std::nullopt;
    return parse_uint_or(m[1].str(), 0);
  };
  const auto a = get("CUDNN_MAJOR"), b = get("CUDNN_MINOR"), c = get("CUDNN_PATCHLEVEL");
  if (a && b && c) return CudnnHeaderVersion{*a, *b, *c};
  return std::nullopt;
}

const std::vector<std::string>& version_header_names() {
  static const std::vector<std::string> names{"cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h", "cudnn.h"};
  return names;
}

namespace {

bool contains_cudnn(std::string_view name) {
  constexpr std::string_view word = "cudnn";
  for (std::size_t i = 0; i + word.size() <= name.size(); ++i) {
    std::size_t k = 0;
    while (k < word.size() && (name[i + k] | 0x20) == word[k]) ++k;
    if (k == word.size()) return true;
  }
  return false;
}

} // namespace

std::optional<CudnnFile> classify_cudnn_file(std::string_view name, Os os) {
  static const std::regex so(R"(^lib(cudnn(?:_[a-z_]+)?)\.so\.(\d+)((?:\.\d+)*)$)");
  static const std::regex dll(R"(^(cudnn(?:_[a-z_]+)?)64_(\d+)\.dll$)", std::regex::icase);
  // both patterns spell "cudnn" (the DLL's in any case): most names a folder walk meets are ruled out here,
  // without a regex (a site-packages of 200 distributions holds some 30 000 names)
  if (!contains_cudnn(name)) return std::nullopt;
  const std::string n(name);
  std::smatch m;
  if (os == Os::windows) {
    if (!std::regex_match(n, m, dll)) return std::nullopt;
    std::string sub = m[1];
    std::transform(sub.begin(), sub.end(), sub.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return CudnnFile{sub, parse_uint_or(m[2].str(), 0), {}};
  }
  if (!std::regex_match(n, m, so) || m[2].length() > 3) return std::nullopt;
  return CudnnFile{m[1], parse_uint_or(m[2].str(), 0), m[3].length() ? m[2].str() + m[3].str() : std::string()};
}

bool is_cudnn_release_file(std::string_view name, Os os) {
  static const std::regex header(R"(^cudnn(_[a-z0-9]+)*\.h$)");
  static const std::regex linux_lib(R"(^libcudnn(_[a-z0-9]+)*(\.so(\.[0-9]+)*|(_static)?(_v[0-9]+)?\.a)$)");
  static const std::regex windows_lib(R"(^cudnn(_[a-z0-9]+)*(64_[0-9]+\.dll|(64_[0-9]+)?\.lib)$)");
  std::string n(name);
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (n.size() > 200) return false;
  if (n.starts_with("cudnn_frontend") || n.starts_with("libcudnn_frontend")) return false;
  if (std::regex_match(n, header)) return n != "cudnn_backend_base.h";
  return std::regex_match(n, os == Os::windows ? windows_lib : linux_lib);
}

std::vector<std::string> cudnn_sub_library_files(const std::vector<std::string>& names, unsigned major, Os os) {
  std::vector<std::string> out;
  for (const auto& n : names)
    if (const auto f = classify_cudnn_file(n, os); f && !f->main() && f->major == major && f->full_version.empty()) out.push_back(n);
  auto rank = [](const std::string& n) {
    for (const auto& [key, r] : std::vector<std::pair<std::string, int>>{{"_graph", 0}, {"_ops", 1}, {"_cnn", 2}, {"_adv", 3}})
      if (n.find(key) != std::string::npos) return r;
    return 4;
  };
  std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) { return rank(a) != rank(b) ? rank(a) < rank(b) : a < b; });
  return out;
}

std::string windows_nvrtc_dll(unsigned cuda_major) {
  if (cuda_major == 11) return "nvrtc64_112_0.dll";
  return fmt::format("nvrtc64_{}0_0.dll", cuda_major);
}

std::vector<RuntimeDependency> cudnn_runtime_dependencies(Os os, unsigned cudnn_major, unsigned cuda_major) {
  std::vector<RuntimeDependency> out;
  if (os == Os::windows) {
    if (cuda_major != 0) {
      out.push_back({fmt::format("cublasLt64_{}.dll", cuda_major), "cudnn_adv and the precompiled engines"});
      out.push_back({windows_nvrtc_dll(cuda_major), "the runtime-compiled engines"});
    }
    if (cudnn_major == 8) out.push_back({"zlibwapi.dll", "cuDNN 8's sub-libraries"});
    return out;
  }
  if (cudnn_major >= 9) {
    out.push_back({fmt::format("libcublasLt.so.{}", cuda_major), "cudnn_adv and the precompiled engines"});
    out.push_back({fmt::format("libnvrtc.so.{}", cuda_major), "the runtime-compiled engines"});
  } else {
    out.push_back({"libnvrtc.so", "cudnn_cnn_infer (cuDNN 8 opens the unversioned name)"});
  }
  return out;
}

std::vector<std::string> cudnn_dll_names(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& n : names) {
    const auto lower = to_lower_ascii(n);
    if (classify_cudnn_file(n, Os::windows) || lower == "zlibwapi.dll") out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace cudnnctl
