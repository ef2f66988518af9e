// Layer 4: the NVIDIA driver and the GPUs, from the probe (or, for a Windows tree read offline, nvcuda.dll).
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/gpu/status_names.hpp"
#include "cudnnctl/loader/gpu_arch.hpp"

namespace cudnnctl {

namespace {

const ProbeResult* probe_of(const DoctorFacts& f) { return f.probe && *f.probe ? &**f.probe : nullptr; }

std::string min_driver(const DoctorFacts& f, Os os) {
  std::string out;
  for (const auto& r : f.support) {
    const auto& d = os == Os::windows ? r.min_driver_windows : r.min_driver_linux;
    if (!d.empty() && (out.empty() || compare_dotted(d, out) < 0)) out = d;
  }
  return out;
}

} // namespace

bool gpu_usable(const DoctorFacts& f) {
  const auto* p = probe_of(f);
  return p && p->gpu_usable();
}

namespace {

// lib64/stubs (libcuda.so for linking) on the loader path shadows the real driver once one is installed
void check_driver_stubs_on_path(const DoctorFacts& f, Checks& out) {
  if (!f.tk() || f.stub_dirs.empty()) return;
  out.push_back(make_check("driver.stubs_on_path", 4, CheckStatus::warn,
                           fmt::format("the toolkit's stub folder is on the loader path: {} (it holds the link-time libcuda.so, not a driver)",
                                       fmt::join(f.stub_dirs, ", ")),
                           "driver.stubs-on-path"));
}

void check_driver_library(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  if (!t) return;
  if (f.offline) {
    if (t->os == Os::windows) {
      for (auto& c : windows_offline_driver(f.win, min_driver(f, Os::windows))) out.push_back(std::move(c));
    } else {
      out.push_back(make_check("driver.skipped", 4, CheckStatus::skip, "skipped: offline (--offline): the driver and the GPU are not touched"));
    }
    return;
  }
  const auto* p = probe_of(f);
  if (!p) {
    out.push_back(make_check("driver.skipped", 4, CheckStatus::skip, "skipped: cuDNN could not be loaded (layer 3)"));
    return;
  }
  if (!p->driver_loaded)
    out.push_back(make_check("driver.library", 4, CheckStatus::skip, fmt::format("no NVIDIA driver: {}", p->driver_error),
                             f.host_os == Os::windows ? "driver.none.windows" : "driver.none"));
  else if (p->cu_init == 34)
    out.push_back(make_check("driver.library", 4, CheckStatus::fail,
                             fmt::format("the toolkit's stub library was loaded as the driver ({}): cuInit returned CUDA_ERROR_STUB_LIBRARY", f.driver_library),
                             "driver.stub"));
  else if (p->cu_init == 100)
    out.push_back(make_check("driver.library", 4, CheckStatus::skip, "the NVIDIA driver is present but sees no GPU (CUDA_ERROR_NO_DEVICE)", "driver.no-device"));
  else if (!p->cu_init || *p->cu_init != 0)
    out.push_back(make_check("driver.library", 4, CheckStatus::fail, fmt::format("cuInit failed: {}", cu_result_name(p->cu_init.value_or(-1))), "driver.init"));
  else
    out.push_back(make_check("driver.library", 4, CheckStatus::pass,
                             fmt::format("driver loaded; CUDA driver API {}.{}", p->driver_api_version.value_or(0) / 1000,
                                         p->driver_api_version.value_or(0) % 1000 / 10)));
}

void check_driver_version(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  const auto* g = f.gpus();
  if (!t || f.offline || !g || !g->driver_found) return;
  const auto minimum = min_driver(f, f.host_os);
  const auto& driver_version = g->driver_version;
  if (driver_version.empty())
    out.push_back(make_check("driver.version", 4, CheckStatus::skip, fmt::format("the driver version could not be read from {}", f.driver_version_file)));
  else if (minimum.empty())
    out.push_back(make_check("driver.version", 4, CheckStatus::pass,
                             fmt::format("driver {}; the catalog has no minimum for cuDNN {} cuda{}", driver_version,
                                         f.header ? f.header->text() : "?", t->major())));
  else if (compare_dotted(driver_version, minimum) < 0)
    out.push_back(make_check("driver.version", 4, CheckStatus::fail,
                             fmt::format("driver {} is older than {}, the minimum NVIDIA lists for cuDNN {} cuda{}", driver_version, minimum,
                                         f.header ? f.header->text() : "?", t->major()),
                             "driver.version"));
  else
    out.push_back(make_check("driver.version", 4, CheckStatus::pass, fmt::format("driver {} >= {} (NVIDIA's minimum)", driver_version, minimum)));
}

void check_device(const DoctorFacts& f, Checks& out) {
  const auto* p = probe_of(f);
  const auto* g = f.gpus();
  if (!f.tk() || f.offline || !p || !g || !g->driver_found) return;
  std::vector<std::string> ccs;
  for (const auto& r : f.support) ccs.insert(ccs.end(), r.compute_capabilities.begin(), r.compute_capabilities.end());
  const auto max = p->max_device_version.value_or(0);
  for (std::size_t i = 0; i < g->devices.size(); ++i) {
    const auto& d = g->devices[i];
    const auto cc = cc_text(d.cc);
    const unsigned encoded = d.cc.major * 100 + d.cc.minor * 10;
    if (max && encoded > max)
      out.push_back(make_check("device.arch", 4, CheckStatus::fail,
                               fmt::format("GPU {} {} (compute {}) is newer than this cuDNN knows (up to {}.{})", i, d.name, cc, max / 100, max % 100 / 10),
                               "device.arch.too-new-gpu"));
    else if (!ccs.empty() && compare_dotted(cc, ccs.front()) < 0)
      out.push_back(make_check("device.arch", 4, CheckStatus::fail,
                               fmt::format("GPU {} {} (compute {}) is older than this cuDNN supports (from {})", i, d.name, cc, ccs.front()),
                               "device.arch.dropped"));
    else
      out.push_back(make_check("device.arch", 4, CheckStatus::pass, fmt::format("GPU {} {} (compute {})", i, d.name, cc)));
  }
  if (!p->create_status) return;
  if (*p->create_status == 0)
    out.push_back(make_check("device.create", 4, CheckStatus::pass, "cudnnCreate succeeded"));
  else
    out.push_back(make_check("device.create", 4, CheckStatus::fail,
                             fmt::format("cudnnCreate returned {}{}", cudnn_status_name(*p->create_status, f.major.value_or(9)),
                                         p->last_error.empty() ? "" : ": " + p->last_error),
                             "device.create"));
}

} // namespace

const std::vector<CheckSpec>& driver_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"driver.stubs_on_path", 4, need_driver_files, &check_driver_stubs_on_path, "a stubs folder holding libcuda.so on LD_LIBRARY_PATH or in the ld.so cache", ""},
      {"driver.library", 4, need_probe | need_driver_files, &check_driver_library, "the driver library (libcuda.so.1, nvcuda.dll): none, the toolkit's stub, cuInit's result", "driver.skipped"},
      {"driver.version", 4, need_probe | need_driver_files, &check_driver_version, "the driver version against NVIDIA's minimum for this cuDNN and CUDA major (from the catalog)", ""},
      {"device.arch", 4, need_probe, &check_device, "each GPU's compute capability against what this cuDNN supports; cudnnCreate with its status decoded", "device.create"},
  };
  return rows;
}

} // namespace cudnnctl
