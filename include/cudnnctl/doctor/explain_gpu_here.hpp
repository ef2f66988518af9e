#pragma once
// `explain --here` for the GPU messages ("no kernel image is available", CUDNN_STATUS_ARCH_MISMATCH, "The
// NVIDIA driver on your system is too old"): the machine's GPUs and driver (machine/machine.hpp: the
// driver-only probe child) and the GPU code of the cuDNN the loader would take (its folder's libcudnn* libraries,
// read with loader/fatbin_reader.hpp), compared: which GPU has no kernel in which library, and whether the
// driver meets NVIDIA's floor for the CUDA major that cuDNN was built with. The explain module knows none of
// this (it is a domain module below the probe); the facts are gathered here, once, and only when a message of
// these families is met.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/explain/explain.hpp"
#include "cudnnctl/loader/fatbin_reader.hpp"

namespace cudnnctl {

enum class GpuMessageFamily { none, kernel, driver };

/// Which family a match belongs to, by its signature (device.arch.* -> kernel, driver.version -> driver).
GpuMessageFamily gpu_message_family(const ExplainMatch& m);

struct CudnnLibraryCode {
  std::string path;  // the library's real path
  GpuCode code;
};

struct GpuHereFacts {
  MachineGpus machine;
  Os os = Os::linux_os;
  std::string cudnn_dir;                   // where the loader would take libcudnn from; empty: none found
  std::vector<CudnnLibraryCode> libraries;  // that folder's cuDNN libraries that carry GPU code
};

/// The CUDA major whose compiler wrote the libraries' PTX (PTX ISA 7.x: CUDA 11, 8.x: 12, 9.x: 13); none
/// without PTX.
std::optional<unsigned> cuda_major_of_ptx(const std::vector<CudnnLibraryCode>& libraries);

/// What --here says for a message of the family: a sentence per GPU (kernel) or about the driver.
std::vector<std::string> gpu_here_findings(const GpuHereFacts& facts, GpuMessageFamily family);

/// The cuDNN libraries (libcudnn*.so*, cudnn*.dll) directly in `folder` whose GPU code can be read: the regular
/// files of loader/library_files.hpp's library_files_in (a link is read through its target, listed there).
std::vector<CudnnLibraryCode> cudnn_code_in(const std::string& folder);

/// Gathers the facts on first use, then answers each match of the two families.
class GpuHereChecker {
public:
  /// `machine`: this run's machine, shared (a doctor run over it hands in its probe's GPUs; else they are asked
  /// at the first match of the families); `find_cudnn_dir` names the folder the loader takes libcudnn from
  /// (empty: none).
  GpuHereChecker(std::shared_ptr<Machine> machine, std::function<std::string()> find_cudnn_dir, Os os);
  std::vector<std::string> findings(const ExplainMatch& m);

private:
  std::shared_ptr<Machine> machine_;
  std::function<std::string()> find_cudnn_dir_;
  Os os_;
  std::optional<GpuHereFacts> facts_;
};

} // namespace cudnnctl
