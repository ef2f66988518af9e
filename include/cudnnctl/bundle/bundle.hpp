#pragma once
// A framework's own copy of cuDNN (a "bundle"): a folder in a Python environment holding cuDNN's
// libraries (site-packages/nvidia/cudnn/lib from the nvidia-cudnn-cuNN wheel, torch\lib on Windows, a
// conda environment's lib/ or Library\bin), with who put it there and what it is.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/bundle/record.hpp"

namespace cudnnctl {

enum class BundleState {
  original,    // the files match the owner's RECORD
  modified,    // they differ from it, and not by cudnnctl
  swapped,     // cudnnctl swapped them; its receipt matches
  unbundled,   // cudnnctl set them aside (the toolkit's copy loads)
  reverted,    // after a swap or unbundle, the package manager put its own files back
  unrecorded,  // no RECORD lists them (nothing to compare with)
};
std::string_view to_string(BundleState s);

/// Who installed a folder's files: a pip distribution (its dist-info) or a conda package (its conda-meta JSON).
struct BundleOwner {
  std::string name;      // "nvidia-cudnn-cu12", "torch", conda "cudnn"
  std::string version;   // the distribution's version ("9.1.0.70"), from METADATA or conda-meta
  std::string metadata;  // the dist-info folder or conda-meta file
  std::string site;      // the folder RECORD's paths are relative to (site-packages, or the conda prefix)
  std::vector<RecordEntry> record;  // pip only; paths relative to `site`
  unsigned cuda_major = 0;          // from the wheel's name (-cu12), 0 unknown
};

struct Bundle {
  std::string dir;
  Os os = Os::linux_os;
  std::vector<std::string> files;  // cuDNN's libraries in dir, by name, sorted
  std::map<std::string, std::string> sha256;  // file name -> SHA-256 (hex) of its content now
  unsigned cudnn_major = 0;
  std::optional<BundleOwner> owner;
  std::string version;   // 4-part where known (METADATA, a DLL's version resource), else 3-part (file name), else empty
  std::string version_source;
  unsigned cuda_major = 0;  // the consumer's: the wheel's name, else the cudart beside it; 0 unknown
  std::string arch;         // "x86_64", "aarch64" (ELF) or "x64", "arm64" (PE); empty unknown
  BundleState state = BundleState::unrecorded;
  std::string state_note;   // why, in words (e.g. which file differs)
};

/// The cuDNN libraries among a folder's file names for `os` (loader names and versioned names).
std::vector<std::string> cudnn_files_among(const std::vector<std::string>& names, Os os);

/// The OS a folder's cuDNN file names are for: Windows when it holds cudnn*64_N.dll, else Linux; nullopt
/// when it holds neither.
std::optional<Os> bundle_os(const std::vector<std::string>& names);

/// The cuDNN major of a folder's files (its main library's); 0 when there is none.
unsigned bundle_cudnn_major(const std::vector<std::string>& files, Os os);

/// The main library's loader name among `files` (libcudnn.so.9, cudnn64_9.dll); empty when none.
std::string main_library(const std::vector<std::string>& files, Os os);

/// cudnnGetVersion()'s number for a version ("9.10.2" -> 91002; 8.x: 8*1000+minor*100+patch).
unsigned cudnn_version_number(const std::string& version);

} // namespace cudnnctl
