#pragma once
// The walk below a site-packages (or a conda prefix's lib/) that finds the folders holding a framework's
// cuDNN: the folders it lists, the ones it leaves out, and how deep it goes.
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

/// How many levels below a site the walk lists: $CONDA_PREFIX/lib/python3.X/site-packages/nvidia/cudnn/lib
/// is five below a conda prefix's lib/.
inline constexpr int k_bundle_walk_depth = 5;

/// Whether the walk leaves the subfolder `name` unlisted, because no real layout keeps a library a
/// framework loads there: `__pycache__` (the import system's byte code, PEP 3147), a distribution's
/// metadata (`*.dist-info`, PEP 376/427; setuptools' `*.egg-info`) and header trees (`include`: torch/include
/// and tensorflow/include hold hundreds of folders each, nvidia/cudnn/include the headers beside lib/).
/// The libraries' folders (torch/lib, nvidia/cudnn/lib, paddle/libs, onnxruntime/capi, jaxlib,
/// tensorflow, auditwheel's `<pkg>.libs`, conda's lib/ and Library/bin) are all walked.
bool bundle_walk_skips(std::string_view folder_name);

/// Folders at most k_bundle_walk_depth levels below `site` (itself included) holding a cuDNN main
/// library; folder links are not followed, and folders bundle_walk_skips names are not listed. Each folder
/// is listed once, its entries' kinds taken from the listing. Sorted.
std::vector<std::string> find_bundle_dirs(const std::string& site);

} // namespace cudnnctl
