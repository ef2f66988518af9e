#pragma once
// The framework bundles of cuDNN on this machine (PyTorch's, TensorFlow's, JAX's copies below the Python environments'
// site folders), found the way `cudnnctl bundle list` finds them: part of what this machine is. The doctor gathers them
// through its seam (doctor/gather_bundles.cpp) and hands them to the run's Machine, where its bundles.* checks, the
// GPU-code checks of the frameworks' libraries and `doctor --fix` read them.
#include <string>
#include <vector>

#include "cudnnctl/bundle/bundle.hpp"

namespace cudnnctl {

struct BundleFacts {
  bool gathered = false;
  bool sites_given = false;              // --site named the folders
  std::vector<std::string> looked_in;    // the site folders searched, in order, each once
  std::vector<std::string> not_asked;    // "python3 (not found)": interpreters that could not be asked
  std::vector<Bundle> bundles;           // sorted by folder, with cudnnctl's receipt taken into account
  std::vector<std::string> problems;     // folders that could not be read, in words
};

} // namespace cudnnctl
