#pragma once
// The facts the doctor's whole-stack checks (checks_stack.cpp) judge, read from this machine in the gather
// phase: the toolkit's and the wheels' CUDA libraries, the ld.so cache's libcuda entries,
// /proc/driver/nvidia/version, WSL2's /usr/lib/wsl/lib and CUDNN_PATH.
#include <string>
#include <vector>

#include "cudnnctl/doctor/facts.hpp"
#include "cudnnctl/doctor/system.hpp"
#include "cudnnctl/env/cuda_stack.hpp"

namespace cudnnctl {

struct StackInputs {
  std::string toolkit_lib_dir;     // the toolkit's library folder (lib64), absolute
  unsigned toolkit_cuda_major = 0; // the toolkit's CUDA major: the CUDA a cuDNN installed into it is for
  std::string loader_cudnn_dir;    // the folder of the cuDNN the loader takes (empty: none)
  std::string host_driver;         // the kernel module's version (/proc/driver/nvidia/version), empty: unknown
  std::string root = "/";          // system root (tests)
  std::string ld_cache_text;       // `ldconfig -p`, as the doctor's system read it
};

/// The CUDA libraries a program could load here: the toolkit's, LD_LIBRARY_PATH's, and the pip wheels' of
/// the active environment (VIRTUAL_ENV, CONDA_PREFIX) and of the user's and system's site-packages.
std::vector<StackLibrary> gather_cuda_stack(const StackInputs& in, const platform::Environment& env);

/// Every stack fact, read once.
StackFacts read_stack_facts(const StackInputs& in, const platform::Environment& env);

} // namespace cudnnctl
