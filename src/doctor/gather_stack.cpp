#include "cudnnctl/doctor/gather_stack.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include <fmt/format.h>

#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/env/linux_loader.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {

std::string read_small(const fs::path& p) { return read_text_head(p, 64 * 1024).value_or(std::string()); }

bool stack_name(const std::string& name) {
  static const std::regex re(R"(^lib(cudart|cublas|cublasLt|nvrtc|cudnn)\.so\.\d+$)");
  return std::regex_match(name, re);
}

void scan_dir(const fs::path& dir, const std::string& origin, unsigned wheel_major, std::vector<StackLibrary>& out) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const auto name = e.path().filename().string();
    if (!stack_name(name)) continue;
    unsigned major = cuda_major_of_file(e.path().string());
    if (!major && name.starts_with("libcudnn")) major = wheel_major;  // cuDNN's file name does not say its CUDA
    if (!major) continue;
    const auto path = e.path().string();
    if (std::none_of(out.begin(), out.end(), [&](const StackLibrary& l) { return fs::equivalent(l.path, path, ec); }))
      out.push_back({path, origin, major});
  }
}

// site-packages/nvidia/<pkg>/lib with the CUDA major its dist-info names (nvidia_cudnn_cu12-...)
void scan_site_packages(const fs::path& sp, std::vector<StackLibrary>& out) {
  std::error_code ec;
  if (!fs::is_directory(sp / "nvidia", ec)) return;
  unsigned cudnn_major = 0;
  std::string cudnn_dist;
  for (const auto& e : fs::directory_iterator(sp, ec)) {
    const auto n = e.path().filename().string();
    if (n.starts_with("nvidia_cudnn") && n.ends_with(".dist-info")) cudnn_major = cuda_major_of_wheel(n), cudnn_dist = n;
  }
  for (const auto& pkg : fs::directory_iterator(sp / "nvidia", ec))
    scan_dir(pkg.path() / "lib", fmt::format("pip wheel in {}{}", sp.string(), pkg.path().filename() == "cudnn" && !cudnn_dist.empty() ? " (" + cudnn_dist + ")" : ""),
             cudnn_major, out);
}

std::vector<fs::path> site_packages(const platform::Environment& env, const std::string& root) {
  std::vector<fs::path> out;
  std::error_code ec;
  std::vector<fs::path> prefixes;
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (auto v = env.get(var)) prefixes.emplace_back(*v);
  if (auto home = env.get("HOME")) prefixes.emplace_back(fs::path(*home) / ".local");
  for (const auto& p : prefixes)
    for (const auto& e : fs::directory_iterator(p / "lib", ec))
      if (e.path().filename().string().starts_with("python")) out.push_back(e.path() / "site-packages");
  for (const auto& base : {fs::path(root) / "usr/local/lib", fs::path(root) / "usr/lib"})
    for (const auto& e : fs::directory_iterator(base, ec))
      if (e.path().filename().string().starts_with("python3")) out.push_back(e.path() / "dist-packages"), out.push_back(e.path() / "site-packages");
  return out;
}

} // namespace

std::vector<StackLibrary> gather_cuda_stack(const StackInputs& in, const platform::Environment& env) {
  std::vector<StackLibrary> out;
  if (!in.toolkit_lib_dir.empty()) scan_dir(in.toolkit_lib_dir, "toolkit", in.toolkit_cuda_major, out);
  if (auto v = env.get("LD_LIBRARY_PATH"))
    for (const auto& d : split_path_list(*v, PathFlavor::posix))
      if (!d.empty()) scan_dir(d, "LD_LIBRARY_PATH", 0, out);
  for (const auto& sp : site_packages(env, in.root)) scan_site_packages(sp, out);
  return out;
}

StackFacts read_stack_facts(const StackInputs& in, const platform::Environment& env) {
  StackFacts f;
  f.gathered = true;
  std::error_code ec;
  f.cudnn_path = env.get("CUDNN_PATH");
  f.loader_cudnn_dir = in.loader_cudnn_dir;
  // which of the folders the CUDNN_PATH rule compares are the loader's (asked here, on this machine, once)
  (void)check_cudnn_path(f.cudnn_path, f.loader_cudnn_dir, [&](const std::string& a, const std::string& b) {
    std::error_code e;
    const bool same = fs::equivalent(a, b, e);
    if (same) f.same_as_loader_dir.push_back(a);
    return same;
  });
  f.libraries = gather_cuda_stack(in, env);

  // the libcuda.so.1 the loader takes (a program asks for it by name, with no RUNPATH of its own)
  auto loader = LinuxSearchOrder::of(env, in.ld_cache_text, multiarch_triplet(platform::detect_host().arch), fs::current_path(ec).string());
  for (auto& d : loader.defaults) d = (fs::path(in.root) / fs::path(d).relative_path()).string();  // the system folders of the root read
  if (const auto hit = loader.find("libcuda.so.1", {}, [&ec](const std::string& p) { return fs::exists(p, ec); })) f.libcuda = hit->path;
  const auto cached = ld_cache_paths(in.ld_cache_text, "libcuda.so.1");
  if (!f.libcuda.empty()) f.libcuda = fs::weakly_canonical(f.libcuda, ec).string();
  f.host_driver = in.host_driver;

  f.wsl.wsl = env.get("WSL_DISTRO_NAME").has_value() || to_lower_ascii(read_small(fs::path(in.root) / "proc/version")).find("microsoft") != std::string::npos;
  const auto wsl_dir = fs::path(in.root) / "usr/lib/wsl/lib";
  f.wsl.lib_dir = fs::is_directory(wsl_dir, ec);
  f.wsl.libcuda_is_copy = fs::is_regular_file(fs::symlink_status(wsl_dir / "libcuda.so.1", ec));
  f.wsl.ld_cache_libcuda = cached;
  f.wsl.unversioned_in_cache = !ld_cache_paths(in.ld_cache_text, "libcuda.so").empty();
  return f;
}

void gather_stack(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys) {
  StackInputs in;
  in.toolkit_lib_dir = f.runtime_dir;
  in.toolkit_cuda_major = f.tk()->cuda_major().value_or(0);
  // read once: gather_driver has it when layer 4 runs, else it is read here through the same seam
  in.host_driver = !f.driver_version.empty() ? f.driver_version
                                             : parse_driver_version(sys.read_text(f.driver_version_file).value_or(std::string()));
  in.ld_cache_text = sys.ld_cache_text();
  if (f.search)
    for (const auto& c : f.search->copies)
      if (c.wins) in.loader_cudnn_dir = c.dir;
  f.stack = read_stack_facts(in, env);
}

} // namespace cudnnctl
