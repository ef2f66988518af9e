#include "cudnnctl/env/cuda_stack.hpp"

#include <cstdlib>
#include <map>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/layout.hpp"

namespace cudnnctl {

unsigned cuda_major_of_file(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  const auto name = to_lower_ascii(slash == std::string::npos ? path : path.substr(slash + 1));
  std::smatch m;
  static const std::regex so(R"(^lib(cudart|cublas|cublaslt|nvrtc|nvrtc-builtins)\.so\.(\d+)(\.[0-9.]+)?$)");
  static const std::regex dll(R"(^(cudart|cublas|cublaslt)64_(\d+)\.dll$)");
  static const std::regex nvrtc_dll(R"(^nvrtc64_(\d+)_0\.dll$)");
  static const std::regex wheel_dir(R"([/\\]nvidia[/\\]cu(\d+)[/\\])");
  if (std::regex_match(name, m, so) || std::regex_match(name, m, dll)) {
    const auto n = parse_uint_or(m[2].str(), 0);
    return n >= 100 ? n / 10 : n;  // cudart64_110.dll
  }
  if (std::regex_match(name, m, nvrtc_dll)) return parse_uint_or(m[1].str(), 0) / 10;
  if (std::regex_search(path, m, wheel_dir)) return parse_uint_or(m[1].str(), 0);
  return 0;
}

unsigned cuda_major_of_wheel(const std::string& dist_info_name) {
  std::smatch m;
  static const std::regex cu(R"(^nvidia[_-][a-z_]+[_-]cu(\d+)-)", std::regex::icase);
  if (std::regex_search(dist_info_name, m, cu)) return parse_uint_or(m[1].str(), 0);
  return 0;
}

StackFinding check_one_cuda_major(const std::vector<StackLibrary>& libs) {
  std::map<unsigned, std::vector<std::string>> by_major;
  for (const auto& l : libs)
    if (l.cuda_major) by_major[l.cuda_major].push_back(fmt::format("{} ({})", l.path, l.origin));
  if (by_major.empty()) return {StackVerdict::pass, "", "no CUDA runtime, cuBLAS, NVRTC or cuDNN wheel found to compare"};
  if (by_major.size() == 1)
    return {StackVerdict::pass, "", fmt::format("every CUDA library found is for CUDA {} ({} files)", by_major.begin()->first, by_major.begin()->second.size())};
  std::vector<std::string> parts;
  for (const auto& [major, files] : by_major)
    parts.push_back(fmt::format("CUDA {}: {}{}", major, fmt::join(std::vector<std::string>(files.begin(), files.begin() + std::min<std::size_t>(files.size(), 3)), ", "),
                                files.size() > 3 ? fmt::format(" and {} more", files.size() - 3) : ""));
  return {StackVerdict::fail, "loader.cuda-majors", fmt::format("libraries of {} CUDA majors can be loaded: {}", by_major.size(), fmt::join(parts, "; "))};
}

StackFinding check_cuda_compat(const std::string& libcuda_path, const std::string& host_driver) {
  const bool compat = libcuda_path.find("/compat/") != std::string::npos || libcuda_path.find("cuda-compat") != std::string::npos;
  if (!compat) return {StackVerdict::pass, "", libcuda_path.empty() ? "no libcuda.so.1 on the loader path" : fmt::format("libcuda.so.1 is the driver's: {}", libcuda_path)};
  std::smatch m;
  static const std::regex version(R"(libcuda\.so\.(\d+\.\d+(?:\.\d+)?)$)");
  const std::string compat_version = std::regex_search(libcuda_path, m, version) ? m[1].str() : std::string();
  if (host_driver.empty() || compat_version.empty())
    return {StackVerdict::warn, "driver.compat-shadows",
            fmt::format("the loader takes cuda-compat's {}; the host driver's version is unknown, so whether it is newer cannot be told", libcuda_path)};
  auto num = [](const std::string& v) {
    std::vector<unsigned long> out;
    for (auto p : split(v, '.')) out.push_back(std::strtoul(std::string(p).c_str(), nullptr, 10));
    return out;
  };
  if (num(host_driver) > num(compat_version))
    return {StackVerdict::fail, "driver.compat-shadows",
            fmt::format("the loader takes cuda-compat's libcuda {} ({}), but the host driver is newer ({}): CUDA calls fail with 'unsupported display driver / cuda driver combination'",
                        compat_version, libcuda_path, host_driver)};
  return {StackVerdict::pass, "", fmt::format("cuda-compat's libcuda {} serves an older host driver {} (forward compatibility, as intended)", compat_version, host_driver)};
}

std::vector<StackFinding> check_wsl(const WslFacts& f) {
  std::vector<StackFinding> out;
  if (!f.wsl) return out;
  if (!f.lib_dir) {
    out.push_back({StackVerdict::fail, "driver.none", "this is WSL2, but /usr/lib/wsl/lib (the Windows driver's libraries) is missing: no GPU for Linux programs"});
    return out;
  }
  for (const auto& p : f.ld_cache_libcuda) {
    if (p.starts_with("/usr/lib/wsl/")) break;
    out.push_back({StackVerdict::fail, "driver.wsl.linux-driver",
                   fmt::format("{} comes before /usr/lib/wsl/lib/libcuda.so.1 in the ld.so cache: a Linux driver inside WSL2 cannot reach the GPU", p)});
    break;
  }
  if (f.libcuda_is_copy && !f.unversioned_in_cache)
    out.push_back({StackVerdict::warn, "driver.wsl.copies",
                   "/usr/lib/wsl/lib holds copies, not links: ldconfig warns (harmless) and libcuda.so (unversioned) is not in the ld.so cache"});
  if (out.empty()) out.push_back({StackVerdict::pass, "", "WSL2: the Windows driver's libraries in /usr/lib/wsl/lib are what the loader takes"});
  return out;
}

StackFinding check_cudnn_path(const std::optional<std::string>& cudnn_path, const std::string& loader_dir,
                              const std::function<bool(const std::string&, const std::string&)>& same_dir) {
  if (!cudnn_path || cudnn_path->empty()) return {StackVerdict::pass, "", "CUDNN_PATH is not set"};
  if (loader_dir.empty())
    return {StackVerdict::warn, "files.cudnn-path", fmt::format("CUDNN_PATH={}, but the loader finds no cuDNN: builds and programs disagree", *cudnn_path)};
  // CUDNN_PATH names a cuDNN root: its library folder is lib or lib64 (Linux), a Windows DLL folder, or the root itself
  auto subs = windows_dll_dirs();
  subs.insert(subs.begin(), {"lib", "lib64"});
  subs.push_back("");
  for (const auto& sub : subs) {
    const std::string dir = sub.empty() ? *cudnn_path : *cudnn_path + "/" + sub;
    if (same_dir(dir, loader_dir)) return {StackVerdict::pass, "", fmt::format("CUDNN_PATH={} names the cuDNN the loader takes ({})", *cudnn_path, loader_dir)};
  }
  return {StackVerdict::warn, "files.cudnn-path",
          fmt::format("CUDNN_PATH={} names another cuDNN than the loader takes ({}): cudnn-frontend, TransformerEngine and cuda-pathfinder use the first, programs the second",
                      *cudnn_path, loader_dir)};
}

} // namespace cudnnctl
