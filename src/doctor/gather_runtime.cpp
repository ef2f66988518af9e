// Layer 3-5 facts: the Linux libraries' dependencies resolved as ld.so would, the probe and workload
// children, the driver's version and stub folders; and the frameworks' own cuDNN copies.
#include <algorithm>
#include <filesystem>

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
    auto info = sys.read_elf(join_path(f.runtime_dir, file));
    if (!info) {
      f.linkage.unreadable.push_back(fmt::format("{} (unreadable: {})", file, info.error().message));
      continue;
    }
    const auto own = own_search_paths(info->rpath, info->runpath, f.runtime_dir);
    if (const auto cf = classify_cudnn_file(file, t->os); cf && cf->graph()) graph_paths = own;
    for (const auto& need : info->needed) {
      const auto hit = order.find(need, own, exists);
      f.linkage.needed.push_back({file, need, hit ? hit->path : std::string(), hit ? hit->via : std::string()});
    }
  }
  // what cuDNN opens by name at run time
  const unsigned cuda_major = parse_uint_or(t->major(), 0);
  for (const auto& [name, who] : cudnn_runtime_dependencies(Os::linux_os, *f.major, cuda_major))
    if (!order.find(name, graph_paths.value_or(OwnSearchPaths{{}, {f.runtime_dir}}), exists) && !sys.exists(join_path(f.runtime_dir, name)))
      f.linkage.runtime_missing.emplace_back(name, who);
}

void gather_probe(DoctorFacts& f, const DoctorOptions& o, DoctorSystem& sys) {
  if (!f.tk() || !f.major) return;
  ProbeRequest req{f.runtime_dir, *f.major, f.driver_library, true};
  f.probe = sys.probe(req, o.probe_timeout_ms);
}

void know_probe_gpus(DoctorFacts& f) {
  // a probe that stopped before the driver (cuDNN did not load) says nothing of the GPUs: the machine asks itself
  // when a reader needs them
  if (!f.probe || !*f.probe || !(*f.probe)->driver_asked()) return;
  f.own_machine().know_gpus(machine_gpus_of(**f.probe, f.driver_version));
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
  req.cudnn_library = join_path(f.runtime_dir, library_file_name(t->os, "cudnn", *f.major));
  req.major = *f.major;
  req.driver_library = f.driver_library;
  req.quick = true;
  f.workload = sys.workload(req, 60000);
}

} // namespace cudnnctl
