// Layer 3: can the loader find and load cuDNN. The model (Linux ELF/ld.so or Windows PE/DLL search) was
// chosen once from the toolkit's OS when the facts were gathered.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/contract/version.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/gpu/status_names.hpp"

namespace cudnnctl {

namespace {

// the loader's checks that read files run for a Windows toolkit anywhere, and for a Linux one on Linux
bool linkage_readable(const DoctorFacts& f) {
  return f.tk() && f.major && (f.model == LoaderModel::windows_pe || f.host_os == f.tk()->os);
}

void check_loader_skipped(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  if (!t) return;
  if (!f.major)
    out.push_back(make_check("loader.skipped", 3, CheckStatus::skip, "skipped: no cuDNN library to load (layer 2)"));
  else if (!linkage_readable(f))
    out.push_back(make_check("loader.skipped", 3, CheckStatus::skip,
                             fmt::format("skipped: this is a {} toolkit and this machine is {}", to_string(t->os), f.host_description)));
}

void check_loader_needed(const DoctorFacts& f, Checks& out) {
  if (!linkage_readable(f)) return;
  if (f.model == LoaderModel::windows_pe) {
    for (auto& c : windows_loader_needed(f.win)) out.push_back(std::move(c));
    return;
  }
  // libcuda.so.1 is the NVIDIA driver's, not the toolkit's: cuDNN 9.2x's engines_runtime_compiled links it, and a
  // machine without the driver (a CI runner) lacks it; the driver layer judges that (driver.library)
  std::vector<std::string> unresolved, driver_only;
  for (const auto& d : f.linkage.needed)
    if (d.found_at.empty()) (d.name == "libcuda.so.1" ? driver_only : unresolved).push_back(fmt::format("{} needs {}", d.library, d.name));
  if (!f.linkage.unreadable.empty()) {
    auto c = make_check("loader.needed", 3, CheckStatus::fail, fmt::format("not shared libraries: {}", fmt::join(f.linkage.unreadable, "; ")));
    c.cause = "cuDNN's files are damaged or are not ELF libraries for this machine, so the loader cannot map them (nothing is missing from the loader path)";
    c.fix = "reinstall cuDNN with cudnnctl install (it re-places the files that differ)";
    out.push_back(std::move(c));
  }
  if (!unresolved.empty())
    out.push_back(make_check("loader.needed", 3, CheckStatus::fail, fmt::format("unresolved dependencies: {}", fmt::join(unresolved, "; ")),
                             "loader.needed"));
  else if (f.linkage.unreadable.empty())
    out.push_back(make_check("loader.needed", 3, CheckStatus::pass,
                             driver_only.empty() ? fmt::format("all {} static dependencies resolve", f.linkage.needed.size())
                                                 : fmt::format("all {} static dependencies resolve but the NVIDIA driver's ({}): this machine has no "
                                                               "libcuda.so.1 on the loader's path, which layer 4 (driver.library) judges",
                                                               f.linkage.needed.size(), fmt::join(driver_only, "; "))));
}

void check_loader_runtime_deps(const DoctorFacts& f, Checks& out) {
  if (!linkage_readable(f)) return;
  if (f.model == LoaderModel::windows_pe) {
    for (auto& c : windows_loader_runtime_deps(f.win)) out.push_back(std::move(c));
    return;
  }
  std::vector<std::string> missing;
  for (const auto& [name, who] : f.linkage.runtime_missing) missing.push_back(fmt::format("{} (for {})", name, who));
  if (!missing.empty())
    out.push_back(make_check("loader.runtime_deps", 3, CheckStatus::warn, fmt::format("not found: {}", fmt::join(missing, "; ")), "loader.runtime_deps"));
  else
    out.push_back(make_check("loader.runtime_deps", 3, CheckStatus::pass, "cuBLASLt and NVRTC for this CUDA major are found"));
}

// the real load, in a child process
void check_loader_load(const DoctorFacts& f, Checks& out) {
  if (!linkage_readable(f)) return;
  if (f.offline) {
    out.push_back(make_check("loader.load", 3, CheckStatus::skip,
                             f.model == LoaderModel::windows_pe
                                 ? "offline: nothing is loaded from a Windows toolkit read here; the imports above were resolved from the files"
                                 : "offline: nothing was loaded (--offline); the dependencies above were resolved from the files"));
    return;
  }
  if (!f.probe) return;
  if (!*f.probe) {
    out.push_back(make_check("loader.load", 3, CheckStatus::fail, "the probe could not run: " + f.probe->error().message));
    return;
  }
  const auto& p = **f.probe;
  std::vector<std::string> failed;
  for (const auto& l : p.loads)
    if (!l.loaded) failed.push_back(fmt::format("{}: {}", l.file, l.error));
  const bool only_driver_missing = !failed.empty() && std::all_of(failed.begin(), failed.end(), [](const std::string& e) {
    return e.find("libcuda.so.1: cannot open shared object file") != std::string::npos;
  });
  if (only_driver_missing) {  // the libraries are sound; without the driver nothing that links libcuda.so.1 loads
    out.push_back(make_check("loader.load", 3, CheckStatus::skip,
                             fmt::format("not loaded without the NVIDIA driver: {} (layer 4, driver.library)", fmt::join(failed, "; "))));
    return;
  }
  if (!failed.empty()) {
    out.push_back(make_check("loader.load", 3, CheckStatus::fail, fmt::format("cannot load: {}", fmt::join(failed, "; ")), "loader.load.cannot-load"));
    return;
  }
  if (p.signal || p.timed_out || !p.version) {
    std::string tail = p.child_stderr;
    std::replace(tail.begin(), tail.end(), '\n', ' ');
    out.push_back(make_check("loader.load", 3, CheckStatus::fail,
                             p.timed_out ? "the cuDNN probe did not finish in time"
                                         : fmt::format("cuDNN aborted the process (signal {}) at its first call: {}", p.signal, tail.substr(0, 300)),
                             "loader.load.aborted"));
    return;
  }
  out.push_back(make_check("loader.load", 3, CheckStatus::pass,
                           fmt::format("{} libraries load; cudnnGetVersion() = {}, built with CUDA runtime {}, max device {}", p.loads.size(), *p.version,
                                       p.cudart_version.value_or(0), p.max_device_version.value_or(0))));
  std::vector<std::string> bad;
  for (const auto& [name, status] : p.version_checks)
    if (status != 0) bad.push_back(fmt::format("{}: {}", name, cudnn_status_name(status, *f.major)));
  if (!bad.empty())
    out.push_back(make_check("loader.version_checks", 3, CheckStatus::fail, fmt::format("sub-library checks failed: {}", fmt::join(bad, "; ")),
                             "loader.version_checks"));
  else
    out.push_back(make_check("loader.version_checks", 3, CheckStatus::pass, fmt::format("all {} sub-library version checks pass", p.version_checks.size())));
  if (f.header) {
    const auto expected = cudnn_version_macro(Version{{f.header->major, f.header->minor, f.header->patch, 0}, 3});
    if (expected && *p.version != *expected)
      out.push_back(make_check("loader.version", 3, CheckStatus::fail,
                               fmt::format("the loaded library is {} but the header says {}", *p.version, *expected), "loader.version"));
  }
}

} // namespace

const std::vector<CheckSpec>& loader_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"loader.skipped", 3, need_toolkit, &check_loader_skipped, "why layer 3 cannot run here (no cuDNN library; a toolkit of another OS)", ""},
      {"loader.needed", 3, need_linkage, &check_loader_needed, "every library's DT_NEEDED (Windows: PE imports) resolved along the loader's real search order", ""},
      {"loader.runtime_deps", 3, need_linkage, &check_loader_runtime_deps, "the libraries cuDNN opens by name at run time: cuBLASLt and NVRTC of the CUDA major (unversioned libnvrtc.so for 8.x)", ""},
      {"loader.load", 3, need_probe, &check_loader_load, "the real load in a child process: every sub-library, the main library, cudnnGetVersion, cudnnGetCudartVersion and the cudnn*VersionCheck calls", "loader.version loader.version_checks"},
  };
  return rows;
}

} // namespace cudnnctl
