// Layer 3-5 facts: the Linux libraries' dependencies resolved as ld.so would, the probe and workload
// children, the driver's version and stub folders; and the frameworks' own cuDNN copies.
#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/env/linux_loader.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;


void gather_linkage(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t || !f.major || f.model != LoaderModel::linux_elf || t->os != f.host_os) return;
  std::error_code cwd_error;
  const auto order = LinuxSearchOrder::of(env, sys.ld_cache_text(), multiarch_triplet(platform::detect_host().arch),
                                          fs::current_path(cwd_error).string());
  const auto exists = [&sys](const std::string& p) { return sys.exists(p); };
  // static dependencies of every cuDNN library, resolved as the loader would
  std::optional<OwnSearchPaths> graph_paths;
  for (const auto& file : cudnn_sub_library_files(f.lib_names, *f.major, t->os)) {
    auto info = sys.read_elf(join_path(f.lib_dir, file));
    if (!info) {
      f.linkage.unreadable.push_back(fmt::format("{} (unreadable: {})", file, info.error().message));
      continue;
    }
    const auto own = own_search_paths(info->rpath, info->runpath, f.lib_dir);
    if (const auto cf = classify_cudnn_file(file, t->os); cf && cf->graph()) graph_paths = own;
    for (const auto& need : info->needed) {
      const auto hit = order.find(need, own, exists);
      f.linkage.needed.push_back({file, need, hit ? hit->path : std::string(), hit ? hit->via : std::string()});
    }
  }
  // what cuDNN opens by name at run time
  const unsigned cuda_major = parse_uint_or(t->major(), 0);
  for (const auto& [name, who] : cudnn_runtime_dependencies(Os::linux_os, *f.major, cuda_major))
    if (!order.find(name, graph_paths.value_or(OwnSearchPaths{{}, {f.lib_dir}}), exists) && !sys.exists(join_path(f.lib_dir, name)))
      f.linkage.runtime_missing.emplace_back(name, who);
}

void gather_probe(DoctorFacts& f, const DoctorOptions& o, DoctorSystem& sys) {
  if (!f.tk() || !f.major) return;
  ProbeRequest req{f.lib_dir, *f.major, f.driver_library, true};
  f.probe = sys.probe(req, o.probe_timeout_ms);
}

void gather_driver(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t) return;
  if (f.host_os == Os::windows) {
    if (f.win.system32)
      for (const auto& [path, pe] : f.win.files.pe)
        if (pe && iequals_ascii(utf8_of(path_from_utf8(path).filename()), "nvcuda.dll")) f.driver_version = windows_driver_version(pe->file_version);
    return;
  }
  f.driver_version = parse_driver_version(sys.read_text(f.driver_version_file).value_or(std::string()));
  if (t->os != Os::linux_os) return;
  // lib64/stubs (libcuda.so for linking) on the loader path shadows the real driver once one is installed
  const auto order = LinuxSearchOrder::of(env, sys.ld_cache_text(), "", "");
  std::vector<std::string> dirs;
  for (const auto& d : order.ld_library_path)
    if (!d.empty()) dirs.push_back(d);
  for (const auto& [name, path] : order.cache)
    if (name.starts_with("libcuda.so")) dirs.push_back(fs::path(path).parent_path().string());
  for (const auto& d : dirs) {
    fs::path p(d);
    while (p.has_parent_path() && p.filename().empty()) p = p.parent_path();
    const bool stub_dir = p.filename() == "stubs" && (sys.exists((p / "libcuda.so").string()) || sys.exists((p / "libcuda.so.1").string()));
    if (stub_dir && std::find(f.stub_dirs.begin(), f.stub_dirs.end(), d) == f.stub_dirs.end()) f.stub_dirs.push_back(d);
  }
}

void gather_workload(DoctorFacts& f, DoctorSystem& sys) {
  const auto* t = f.tk();
  // the workload needs what the probe found: a usable GPU (a fact of the probe, not a check's verdict)
  if (!t || !f.major || f.no_gpu || !f.probe || !*f.probe || !(*f.probe)->gpu_usable()) return;
  WorkloadRequest req;
  req.cudnn_library = join_path(f.lib_dir, library_file_name(t->os, "cudnn", *f.major));
  req.major = *f.major;
  req.driver_library = f.driver_library;
  req.quick = true;
  f.workload = sys.workload(req, 60000);
}

// PyTorch and pip wheels carry their own cuDNN, which their programs load first. Only this machine's
// Python folders are scanned, so only for a toolkit of this machine's OS.
void gather_frameworks(DoctorFacts& f, const platform::Environment& env, DoctorSystem& sys) {
  const auto* t = f.tk();
  if (!t || !f.major || t->os != f.host_os) return;
  f.frameworks_scanned = true;
  std::vector<fs::path> roots;
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (auto v = env.get(var); v && !v->empty()) roots.push_back(path_from_utf8(*v));
  if (auto home = env.get("HOME")) {
    roots.push_back(path_from_utf8(*home) / ".local");
    for (const char* base : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", ".conda"}) {
      for (const auto& e : sys.list_dir(utf8_of(path_from_utf8(*home) / base / "envs"))) roots.push_back(path_from_utf8(*home) / base / "envs" / path_from_utf8(e));
      roots.push_back(path_from_utf8(*home) / base);
    }
  }
  roots.push_back("/usr/local");
  roots.push_back("/usr");
  if (auto path = env.get("PATH"))
    for (auto d : split(*path, f.host_os == Os::windows ? ';' : ':')) {
      std::error_code ec;
      const fs::path dir = path_from_utf8(d);
      if (sys.exists(utf8_of(dir / "python3"))) roots.push_back(fs::weakly_canonical(dir / "python3", ec).parent_path().parent_path());
    }
  std::set<std::string> seen;
  static const std::regex wheel(R"(^nvidia_cudnn_cu(\d+)-([\d.]+)\.dist-info$)");
  for (const auto& root : roots) {
    // Linux: <prefix>/lib/python3.X/site-packages; Windows: <prefix>\Lib\site-packages
    std::vector<fs::path> sites;
    for (const auto& lib : {root / "lib", root / "lib64"})
      for (const auto& py : sys.list_dir(utf8_of(lib)))
        if (py.starts_with("python3"))
          for (const char* site : {"site-packages", "dist-packages"}) sites.push_back(lib / path_from_utf8(py) / site);
    sites.push_back(root / "Lib" / "site-packages");
    for (const auto& sp : sites) {
      std::error_code ec;
      if (!sys.is_dir(utf8_of(sp)) || !seen.insert(utf8_of(fs::weakly_canonical(sp, ec))).second) continue;
      for (const auto& n : sys.list_dir(utf8_of(sp))) {
        std::smatch m;
        if (std::regex_match(n, m, wheel)) {
          std::string dir = utf8_of(sp);
          for (const char* sub : {"lib", "bin"})
            if (const auto d = sp / "nvidia" / "cudnn" / sub; sys.is_dir(utf8_of(d))) dir = utf8_of(d);
          f.frameworks.push_back({fmt::format("pip nvidia-cudnn-cu{} {}", m[1].str(), m[2].str()), dir});
        }
        if (n != "torch") continue;
        const auto lib = utf8_of(sp / path_from_utf8(n) / "lib");
        const auto names = sys.list_dir(lib);
        if (std::any_of(names.begin(), names.end(), [](const std::string& x) {
              // either OS's names: Windows-layout environments (Lib/site-packages) are read on every host
              return classify_cudnn_file(x, Os::linux_os).has_value() || classify_cudnn_file(x, Os::windows).has_value();
            }))
          f.frameworks.push_back({"PyTorch's own cuDNN", lib});
      }
    }
  }
}

} // namespace cudnnctl
