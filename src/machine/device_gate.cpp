#include "cudnnctl/machine/device_gate.hpp"

#include <regex>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/catalog/driver_floors.hpp"
#include "cudnnctl/machine/probe.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/platform/dynlib.hpp"

namespace cudnnctl {

std::string parse_driver_version(const std::string& text) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(R"(Kernel Module\s+(?:for\s+\S+\s+)?(\d+\.\d+(?:\.\d+)?))"))) return m[1];
  return {};
}

MachineGpus machine_gpus_of(const ProbeResult& probe, std::string driver_version) {
  MachineGpus out;
  if (probe.timed_out) out.unanswered = "it did not answer in time";
  else if (probe.signal) out.unanswered = fmt::format("it stopped on signal {}", probe.signal);
  else if (!probe.completed) out.unanswered = "it stopped before it finished";
  if (!probe.driver_ready()) return out;
  out.driver_found = true;
  out.driver_api_version = probe.driver_api_version;
  for (const auto& d : probe.devices)
    if (d.cc_major > 0 && d.cc_minor >= 0)
      out.devices.push_back({d.name, {static_cast<unsigned>(d.cc_major), static_cast<unsigned>(d.cc_minor)}});
  out.driver_version = std::move(driver_version);
  return out;
}

MachineGpus probe_machine_gpus(const std::string& driver_library) {
  const auto host = platform::detect_host();
  ProbeRequest req;
  req.driver_only = true;
  req.lib_dir = ".";  // not read: no cuDNN is loaded
  req.driver_library = !driver_library.empty() ? driver_library : host.os == Os::windows ? "nvcuda.dll" : "libcuda.so.1";
  const auto probe = run_probe(platform::self_executable(), req, 30000);
  if (!probe) {
    MachineGpus out;
    out.unanswered = probe.error().message;
    return out;
  }
  std::string driver_version;
  if (host.os == Os::linux_os && probe->driver_ready())
    if (const auto text = read_text_file(path_from_utf8("/proc/driver/nvidia/version"), 1 << 16)) driver_version = parse_driver_version(*text);
  auto out = machine_gpus_of(*probe, std::move(driver_version));
  if (!out.unanswered.empty()) log::info("install: the driver-only probe child failed: {}; its stderr: {}", out.unanswered, probe->child_stderr);
  return out;
}

std::vector<std::string> driver_floor_warnings(const ArchiveName& name, const MachineGpus& gpus) {
  std::vector<std::string> out;
  if (!gpus.unanswered.empty())
    out.push_back(fmt::format("the NVIDIA driver could not be asked for this machine's GPUs ({}): the archive's GPU code was not compared "
                        "with them; 'cudnnctl doctor' checks it once installed",
                        gpus.unanswered));
  const auto major = parse_uint_or(name.cuda_major(), 0);
  if (!gpus.driver_found || major == 0) return out;
  const auto floor = driver_floor_for(major, std::nullopt, name.os);
  const auto floor_text = floor ? fmt::format(" (NVIDIA's minimum for CUDA {}: {})", major, *floor) : std::string();
  if (!gpus.driver_version.empty() && driver_below_floor(gpus.driver_version, major, std::nullopt, name.os)) {
    out.push_back(fmt::format("this archive is for CUDA {}, which needs a newer NVIDIA driver than this machine's {}{}: programs will fail "
                        "with \"The NVIDIA driver on your system is too old\" until the driver is updated",
                        major, gpus.driver_version, floor_text));
    return out;
  }
  if (gpus.driver_api_version && *gpus.driver_api_version / 1000 < static_cast<int>(major))
    out.push_back(fmt::format("this archive is for CUDA {}, but this machine's NVIDIA driver runs CUDA up to {}.{}{}: programs will fail with "
                        "\"The NVIDIA driver on your system is too old (found version {})\" until the driver is updated",
                        major, *gpus.driver_api_version / 1000, *gpus.driver_api_version % 1000 / 10, floor_text, *gpus.driver_api_version));
  return out;
}

} // namespace cudnnctl
