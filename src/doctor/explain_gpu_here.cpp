#include "cudnnctl/doctor/explain_gpu_here.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/catalog/architecture_spans.hpp"
#include "cudnnctl/catalog/driver_floors.hpp"
#include "cudnnctl/install/archive_libraries.hpp"
#include "cudnnctl/install/library_floor.hpp"
#include "cudnnctl/loader/library_files.hpp"

namespace cudnnctl {

namespace {

std::string here_arch_list(const GpuCode& code) {
  std::vector<std::string> parts;
  std::vector<std::string> sass, ptx;
  for (const auto& a : code.sass()) sass.push_back(sass_name(a));
  for (const auto& a : code.ptx()) ptx.push_back(ptx_name(a));
  if (!sass.empty()) parts.push_back(fmt::format("SASS {}", fmt::join(sass, " ")));
  if (!ptx.empty()) parts.push_back(fmt::format("PTX {}", fmt::join(ptx, " ")));
  return parts.empty() ? std::string("no GPU code") : fmt::format("{}", fmt::join(parts, " and "));
}

std::string here_file_name(const std::string& path) { return utf8_of(path_from_utf8(path).filename()); }

// One GPU against the libraries: the first library with nothing for it, or what runs it.
std::string kernel_finding(const GpuHereFacts& f, std::size_t index, const GpuDevice& d) {
  const auto head = fmt::format("GPU {} {} is {} (compute {})", index, d.name, cc_sm_name(d.cc), cc_text(d.cc));
  for (const auto& lib : f.libraries) {
    if (code_fit(lib.code.sass(), lib.code.ptx(), d.cc).kind != CodeFit::Kind::none) continue;
    const auto advice = architecture_span_advice(d.cc.major, d.cc.minor);
    return fmt::format("{}; the {} at {} carries {}: no kernel for it; fix: install a cuDNN built for {} ({}`cudnnctl install` refuses "
                       "a release without code for this GPU)",
                       head, here_file_name(lib.path), lib.path, here_arch_list(lib.code), cc_sm_name(d.cc), advice ? *advice + "; " : std::string());
  }
  const auto& best = f.libraries.front();
  const auto fit = code_fit(best.code.sass(), best.code.ptx(), d.cc);
  return fmt::format("{}; the cuDNN at {} has code for it in every library ({} in {}): if the message names no cuDNN call, the "
                     "missing kernel is the program's own (device.arch.program-build)",
                     head, f.cudnn_dir, fit.kind == CodeFit::Kind::sass ? sass_name(fit.arch) : ptx_name(fit.arch) + " (PTX, compiled by the driver)",
                     here_file_name(best.path));
}

std::vector<std::string> kernel_findings(const GpuHereFacts& f) {
  if (!f.machine.driver_found) return {"no NVIDIA driver answered here, so the GPUs are not known"};
  if (f.machine.devices.empty()) return {"the driver sees no GPU here"};
  if (f.libraries.empty())
    return {f.cudnn_dir.empty() ? "no cuDNN on this machine's loader search order, so there is no GPU code to compare"
                                : fmt::format("the cuDNN at {} has no library with GPU code", f.cudnn_dir)};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < f.machine.devices.size(); ++i) out.push_back(kernel_finding(f, i, f.machine.devices[i]));
  return out;
}

std::string driver_runs_text(const MachineGpus& m) {
  const auto name = m.driver_version.empty() ? std::string("the driver") : fmt::format("driver {}", m.driver_version);
  if (!m.driver_api_version) return name;
  return fmt::format("{} runs CUDA up to {}.{}", name, *m.driver_api_version / 1000, *m.driver_api_version % 1000 / 10);
}

std::vector<std::string> driver_findings(const GpuHereFacts& f) {
  if (!f.machine.driver_found) return {"no NVIDIA driver answered here (install one; docs/troubleshooting.md, driver.none)"};
  const auto runs = driver_runs_text(f.machine);
  const auto major = cuda_major_of_ptx(f.libraries);
  if (!major)
    return {fmt::format("{}; the CUDA major of this machine's cuDNN is not known (no cuDNN found, or no PTX to tell)", runs)};
  const auto floor = driver_floor_for(*major, std::nullopt, f.os);
  const auto floor_text = floor ? fmt::format(" (NVIDIA's floor: {})", *floor) : std::string();
  const bool below_floor = !f.machine.driver_version.empty() && driver_below_floor(f.machine.driver_version, *major, std::nullopt, f.os);
  const bool api_too_old = f.machine.driver_api_version && *f.machine.driver_api_version / 1000 < static_cast<int>(*major);
  const auto head = fmt::format("{}; the cuDNN at {} is for CUDA {}{}", runs, f.cudnn_dir, *major, floor_text);
  if (below_floor || api_too_old)
    return {fmt::format("{}: update the driver{}, or use a cuDNN and framework built for the CUDA this driver runs", head,
                        floor ? " to " + *floor + " or newer" : std::string())};
  return {fmt::format("{}: this driver is new enough for it, so the message comes from another CUDA library of the program "
                      "(its CUDA runtime is newer than the driver)",
                      head)};
}

} // namespace

GpuMessageFamily gpu_message_family(const ExplainMatch& m) {
  if (!m.signature) return GpuMessageFamily::none;
  const std::string_view id = m.signature->id;
  if (id.starts_with("device.arch.")) return GpuMessageFamily::kernel;
  if (id == "driver.version") return GpuMessageFamily::driver;
  return GpuMessageFamily::none;
}

std::optional<unsigned> cuda_major_of_ptx(const std::vector<CudnnLibraryCode>& libraries) {
  std::optional<unsigned> newest;
  for (const auto& lib : libraries)
    for (const auto& e : lib.code.entries)
      if (e.kind == FatbinKind::ptx && e.ptx_isa_major >= 7) newest = std::max<unsigned>(newest.value_or(0), e.ptx_isa_major + 4u);
  return newest;
}

std::vector<std::string> gpu_here_findings(const GpuHereFacts& facts, GpuMessageFamily family) {
  switch (family) {
  case GpuMessageFamily::kernel: return kernel_findings(facts);
  case GpuMessageFamily::driver: return driver_findings(facts);
  case GpuMessageFamily::none: break;
  }
  return {};
}

std::vector<CudnnLibraryCode> cudnn_code_in(const std::string& folder) {
  // the loader module's one folder scan (library files, links left out: their targets are listed), the cuDNN
  // ones read; not read_folder_gpu_code, which would read every library of a system folder
  std::vector<CudnnLibraryCode> out;
  for (const auto& path : library_files_in(folder)) {
    const auto name = here_file_name(path);
    if (!name.starts_with("libcudnn") && !(name.starts_with("cudnn") && is_dll_name(name))) continue;
    if (auto code = read_gpu_code_file(path); code && !code->entries.empty()) out.push_back({path, std::move(*code)});
  }
  return out;
}

GpuHereChecker::GpuHereChecker(std::shared_ptr<Machine> machine, std::function<std::string()> find_cudnn_dir, Os os)
    : machine_(std::move(machine)), find_cudnn_dir_(std::move(find_cudnn_dir)), os_(os) {}

std::vector<std::string> GpuHereChecker::findings(const ExplainMatch& m) {
  const auto family = gpu_message_family(m);
  if (family == GpuMessageFamily::none) return {};
  if (!facts_) {
    GpuHereFacts f;
    f.os = os_;
    f.machine = machine_->gpus();
    f.cudnn_dir = find_cudnn_dir_();
    if (!f.cudnn_dir.empty()) f.libraries = cudnn_code_in(f.cudnn_dir);
    facts_ = std::move(f);
  }
  return gpu_here_findings(*facts_, family);
}

} // namespace cudnnctl
