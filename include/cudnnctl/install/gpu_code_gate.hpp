#pragma once
// install's look at the GPUs before anything is placed: the staged libraries' fat binaries
// (loader/fatbin_reader.hpp) against the compute capability of each GPU the driver reports. An archive
// with no code for a present GPU is refused (install.no-gpu-code, exit 15); --force installs anyway.
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/loader/gpu_arch.hpp"

namespace cudnnctl {

struct GpuDevice {
  std::string name;        // "NVIDIA GeForce GTX 1080"
  ComputeCapability cc;
};

/// Every regular-file library (.so, .dll) directly in `folder`, its GPU code read: ok when each library that
/// carries code has SASS or PTX for every device; else install.no-gpu-code naming each device, the libraries
/// with nothing for it, what they carry and the fix. A library whose fat binary cannot be read is left out.
Result<void> check_gpu_code_for_devices(const std::string& folder, const std::vector<GpuDevice>& devices, const std::string& archive);

} // namespace cudnnctl
