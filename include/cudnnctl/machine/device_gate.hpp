#pragma once
// What install learns about this machine's GPUs and driver before it places anything: a driver-only probe
// child (the doctor's, without cuDNN) lists the GPUs and the CUDA version the driver supports; the driver's
// own version is read where the OS shows it (/proc/driver/nvidia/version on Linux). No driver: nothing known.
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/install/gpu_code_gate.hpp"
#include "cudnnctl/machine/probe.hpp"

namespace cudnnctl {

struct MachineGpus {
  bool driver_found = false;
  std::vector<GpuDevice> devices;
  std::optional<int> driver_api_version;  // cuDriverGetVersion: 12080 = the driver runs CUDA up to 12.8
  std::string driver_version;             // "570.86.15"; empty where unread
  std::string unanswered;                 // the probe child timed out, crashed or stopped early: why (empty otherwise)
};

/// "Kernel Module  550.54.14  ..." (the first line of /proc/driver/nvidia/version) -> "550.54.14".
std::string parse_driver_version(const std::string& proc_text);

/// What a probe child's answer (the driver-only one, or the doctor's full probe) says of the GPUs and the driver,
/// with the driver's version read beside it (empty: unread): the one conversion of a probe to MachineGpus.
MachineGpus machine_gpus_of(const ProbeResult& probe, std::string driver_version);

/// The GPUs and driver through `driver_library` (empty: libcuda.so.1 / nvcuda.dll by name).
MachineGpus probe_machine_gpus(const std::string& driver_library);

/// The warnings (never refusals) of install's gate: the driver could not be asked (the GPU code then goes
/// unchecked), or the archive's CUDA variant needs a newer driver than the one found.
std::vector<std::string> driver_floor_warnings(const ArchiveName& name, const MachineGpus& gpus);

} // namespace cudnnctl
