#pragma once
// The doctor's whole-stack checks (issue 20): the facts read from this machine (the toolkit's and the
// wheels' CUDA libraries, the ld.so cache, /proc/driver/nvidia/version, WSL2's /usr/lib/wsl/lib, CUDNN_PATH),
// judged by the pure rules of env/cuda_stack.hpp, as doctor checks with the signature's cause and fix.
#include <string>
#include <vector>

#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/env/cuda_stack.hpp"

namespace cudnnctl {

struct StackInputs {
  std::string toolkit_lib_dir;     // the toolkit's library folder (lib64), absolute
  unsigned toolkit_cuda_major = 0; // the toolkit's CUDA major: the CUDA a cuDNN installed into it is for
  std::string loader_cudnn_dir;    // the folder of the cuDNN the loader takes (empty: none)
  std::string driver_version_file = "/proc/driver/nvidia/version";
  std::string root = "/";          // system root (tests)
};

/// The CUDA libraries a program could load here: the toolkit's, LD_LIBRARY_PATH's, and the pip wheels' of
/// the active environment (VIRTUAL_ENV, CONDA_PREFIX) and of the user's and system's site-packages.
std::vector<StackLibrary> gather_cuda_stack(const StackInputs& in, const platform::Environment& env);

/// stack.cuda_major (layer 3), files.cudnn_path (layer 2), driver.compat and driver.wsl (layer 4).
std::vector<Check> stack_checks(const StackInputs& in, const platform::Environment& env);

} // namespace cudnnctl
