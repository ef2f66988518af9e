#pragma once
// GPU architecture and capability statements ("no kernel image is available", sm_86, "capability 6.1",
// "CUDA Capability: 61", "is not compatible with the current PyTorch installation") and driver statements
// ("found no NVIDIA driver", "CUDA driver version is insufficient"), and whose code a "no kernel image" is about.
#include <optional>
#include <string>
#include <string_view>

namespace cudnnctl {

struct GpuStatement {
  bool no_kernel_image = false;  // cudaErrorNoKernelImageForDevice (209)
  bool cudnn_named = false;      // the line names cuDNN: the kernels missing are cuDNN's
  bool arch_not_supported = false;  // "is not compatible with the current PyTorch installation", "not supported by"
  std::string capability;        // "6.1" from "capability 6.1", "sm_61", "CUDA Capability: 61"; empty when not stated
  bool driver_missing = false;   // no driver at all
  bool driver_insufficient = false;  // the driver is older than the CUDA runtime
};

std::optional<GpuStatement> gpu_statement_in(std::string_view line);

} // namespace cudnnctl
