#pragma once
// GPU architectures as a fat binary names them (sm_XY SASS, compute_XY PTX, with the `a` and `f` variants)
// and which GPU a piece of code runs on. NVIDIA's rules (CUDA C++ Programming Guide, "Binary
// Compatibility", "PTX Compatibility"; the CUDA 12.9 blog "Family-Specific Architecture Features"):
//   * SASS sm_XY runs on compute capability X.Z with Z >= Y (the same major, a minor at least as new);
//   * sm_XYa (architecture-specific) runs on X.Y only;
//   * sm_XYf (family-specific) runs on the family of X.Y: the same major, a minor at least as new;
//   * PTX compute_XY is compiled by the driver (JIT) for any GPU of compute capability X.Y or newer;
//     compute_XYa only for X.Y, compute_XYf only for X.Z with Z >= Y.
#include <compare>
#include <optional>
#include <string>
#include <vector>

namespace cudnnctl {

enum class ArchVariant { plain, arch_specific, family };  // sm_90, sm_90a, sm_100f

struct GpuArch {
  unsigned number = 0;  // 75, 90, 100, 121: major * 10 + minor
  ArchVariant variant = ArchVariant::plain;
  unsigned major() const { return number / 10; }
  unsigned minor() const { return number % 10; }
  auto operator<=>(const GpuArch&) const = default;
};

/// A device's compute capability (8.6, 12.0).
struct ComputeCapability {
  unsigned major = 0;
  unsigned minor = 0;
  auto operator<=>(const ComputeCapability&) const = default;
};

/// "sm_90a" / "compute_121".
std::string sass_name(const GpuArch& arch);
std::string ptx_name(const GpuArch& arch);
/// "8.6"
std::string cc_text(ComputeCapability cc);
/// "sm_86" for 8.6: how the fix names the architecture to build for.
std::string cc_sm_name(ComputeCapability cc);
/// "8.6", "12.0", "sm_86", "sm_120": nullopt when it is neither.
std::optional<ComputeCapability> parse_compute_capability(const std::string& text);

bool sass_runs_on(const GpuArch& sass, ComputeCapability cc);
bool ptx_jits_on(const GpuArch& ptx, ComputeCapability cc);

/// What a device gets from a library's code: SASS that runs on it (the best: same minor first), else PTX
/// the driver can compile for it, else nothing.
struct CodeFit {
  enum class Kind { sass, ptx, none } kind = Kind::none;
  GpuArch arch;  // the SASS or PTX used
};

CodeFit code_fit(const std::vector<GpuArch>& sass, const std::vector<GpuArch>& ptx, ComputeCapability cc);

} // namespace cudnnctl
