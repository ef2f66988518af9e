#pragma once
// Whole-stack checks over facts gathered elsewhere (pure: every input is a value, so each rule is unit-tested):
// one CUDA major across cudart, cuBLAS/cuBLASLt, NVRTC and cuDNN (toolkit and wheels); cuda-compat's
// libcuda.so.1 in front of a newer host driver; WSL2's driver folder; CUDNN_PATH against the copy the loader
// takes. Each answer names the doctor signature that explains it (signatures.hpp).
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cudnnctl {

enum class StackVerdict { pass, warn, fail };

struct StackFinding {
  StackVerdict verdict = StackVerdict::pass;
  std::string signature;  // empty when it passes
  std::string finding;    // one line
};

// ---- one CUDA major ------------------------------------------------------------------------------
struct StackLibrary {
  std::string path;    // where it is
  std::string origin;  // "toolkit", "pip wheel", "LD_LIBRARY_PATH", ...
  unsigned cuda_major = 0;
};

/// The CUDA major a file belongs to, from its name: libcudart.so.12, libcublasLt.so.13, libnvrtc.so.12,
/// cudart64_12.dll, nvrtc64_120_0.dll; a wheel folder nvidia/cu13/...; 0 when the name does not say.
unsigned cuda_major_of_file(const std::string& path);
/// The CUDA major of a pip distribution from its dist-info name: nvidia_cudnn_cu12-9.1.0.70 -> 12; 0 unknown.
unsigned cuda_major_of_wheel(const std::string& dist_info_name);

StackFinding check_one_cuda_major(const std::vector<StackLibrary>& libs);

// ---- cuda-compat ---------------------------------------------------------------------------------
/// `libcuda_path`: the libcuda.so.1 the loader takes (real path, e.g. /usr/local/cuda-13.0/compat/libcuda.so.580.65.06);
/// `host_driver`: the kernel module's version (/proc/driver/nvidia/version), empty when unknown.
StackFinding check_cuda_compat(const std::string& libcuda_path, const std::string& host_driver);

// ---- WSL2 ----------------------------------------------------------------------------------------
struct WslFacts {
  bool wsl = false;                            // /proc/version says Microsoft, or WSL_DISTRO_NAME is set
  bool lib_dir = false;                        // /usr/lib/wsl/lib exists
  bool libcuda_is_copy = false;                // /usr/lib/wsl/lib/libcuda.so.1 is a plain file
  std::vector<std::string> ld_cache_libcuda;   // the ld.so cache's libcuda.so.1 entries, in order
  bool unversioned_in_cache = false;           // libcuda.so (no version) is in the ld.so cache
};
std::vector<StackFinding> check_wsl(const WslFacts& f);

// ---- CUDNN_PATH ----------------------------------------------------------------------------------
/// `cudnn_path`: the variable's value (nullopt: unset). `loader_dir`: the folder of the libcudnn the loader
/// takes (empty: none). `same_dir` compares folders on this machine (links resolved).
StackFinding check_cudnn_path(const std::optional<std::string>& cudnn_path, const std::string& loader_dir,
                              const std::function<bool(const std::string&, const std::string&)>& same_dir);

} // namespace cudnnctl
