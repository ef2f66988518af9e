#pragma once
// Mixed releases found before anything runs: a place programs load cuDNN from (a toolkit's runtime folder, a
// framework bundle, a copy on the loader's path) that lacks a sub-library its release has, while another folder
// on the loader's path holds that sub-library of another release. cuDNN opens its sub-libraries by name, so the
// loader takes the other folder's and the first convolution fails with CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH
// (pytorch/pytorch#188892, #185512, koharu-rs/koharu#694). Pure: the doctor (files.mixed_release) and
// `explain --here` both ask it.
#include <string>
#include <vector>

#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/env/shadow_scan.hpp"

namespace cudnnctl {

struct LoadPlace {
  std::string dir;
  std::string version;     // "9.21.0.82" or "9.21.0"
  unsigned major = 0;
  std::string owner;       // in words ("pip: nvidia-cudnn-cu13 9.21.0.82", owner.hpp's describe)
  std::string fix;         // how to make it complete, for the finding's fix
  std::vector<std::string> subs;  // the sub-libraries it holds (loader names' base names: "cudnn_ops")
};

struct ReleaseGap {
  LoadPlace place;
  std::string file;  // the missing sub-library's loader name: libcudnn_engines_tensor_ir.so.9
  CudnnCopy from;    // the copy on the loader's path the loader takes it from
};

/// The sub-libraries among file names of one major (the loader names: libcudnn_ops.so.9, cudnn_ops64_9.dll).
std::vector<std::string> loader_sub_libraries(const std::vector<std::string>& names, unsigned major, Os os);

/// Each place's first gap per missing sub-library that a copy of another release on `copies` (the loader's
/// order) fills. A JIT build (main, graph, runtime-compiled engines only) has no gap for the engines it lacks.
std::vector<ReleaseGap> mixed_release_gaps(const std::vector<LoadPlace>& places, const std::vector<CudnnCopy>& copies, Os os);

/// A copy on the loader's path as a place (its folder, version, owner, sub-libraries).
LoadPlace place_of_copy(const CudnnCopy& c);

/// The finding in words: "<dir> (cuDNN V, owner) has no F, which cuDNN V opens by name: the loader takes it from
/// <dir> (cuDNN W, owner via step)"; and its fix (the other owner's command, or the place's own).
std::string gap_text(const ReleaseGap& g);
std::string gap_fix(const ReleaseGap& g);

} // namespace cudnnctl
