#pragma once
// Compute capability statements: the GPU's capability and the range a program's build supports, as frameworks
// print them ("sm_120 is not compatible ... supports CUDA capabilities sm_50 ... sm_90", "cuda capability 3.5 ...
// The minimum cuda capability supported by this library is 3.7", "not built with CUDA kernel binaries compatible
// with compute capability 9.0 ... jit-compiled from PTX"), and what follows from the numbers under CUDA's rules:
// a cubin (sm_XY) runs on the GPUs of major X with minor Y or newer; PTX (compute_XY) is compiled by the driver
// for any GPU of capability X.Y or newer; an arch-specific cubin (sm_90a) runs on exactly that capability.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

struct GpuCapability {
  int major = 0, minor = 0;
  std::string text() const;  // "8.6"
  auto operator<=>(const GpuCapability&) const = default;
};

/// "8.6", "86", "120", "sm_86", "compute_90", "sm_90a", "12.0" -> the capability; anything else -> nullopt.
std::optional<GpuCapability> parse_capability(std::string_view text);

struct BuildTarget {
  GpuCapability cc;
  bool ptx = false;            // compute_XY: PTX the driver compiles
  bool arch_specific = false;  // sm_90a, sm_100a: runs on that capability only
};

/// The build targets a text lists: "sm_50 sm_60 sm_86 compute_37", "sm_90a".
std::vector<BuildTarget> build_targets_in(std::string_view text);

enum class CapabilityFit {
  native,       // a cubin of exactly this capability
  same_major,   // a cubin of the same major and an older minor: binary compatible, it runs
  ptx_jit,      // no cubin runs, PTX of this capability or older does: the driver compiles it (slow start, it runs)
  gpu_too_new,  // nothing in the build runs on it: the GPU is newer than the build
  gpu_too_old,  // nothing in the build runs on it: the GPU is older than the build's oldest target
};

std::string_view capability_fit_text(CapabilityFit f);
/// Whether code built for `build` runs on a GPU of capability `gpu`, by CUDA's compatibility rules.
CapabilityFit capability_fit(GpuCapability gpu, std::span<const BuildTarget> build);

struct CapabilityStatement {
  std::optional<GpuCapability> gpu;      // the GPU's capability, when stated
  std::vector<BuildTarget> build;            // the targets the program's build lists
  std::optional<GpuCapability> minimum;  // "the minimum ... capability ... is 3.7"
  bool gpu_refused = false;                  // the program says it cannot run on the GPU ("is not compatible", "too old")
  bool jit_from_ptx = false;                 // the program says it will JIT-compile PTX
  std::optional<CapabilityFit> fit;          // decided from the numbers when they are there
  std::string said() const;                  // what the numbers say, in one sentence
};

std::optional<CapabilityStatement> capability_statement_in(std::string_view line);

} // namespace cudnnctl
