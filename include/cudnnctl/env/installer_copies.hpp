#pragma once
// NVIDIA's Windows cuDNN installer's copies (contract/windows_installer.hpp): <ProgramFiles>\NVIDIA\CUDNN\v9.x\bin
// \<cuda> (or its machine folder, x64 from 9.18), listed through a seam (the doctor's DoctorSystem, or this
// machine's disk for `path`), bounded, and the one that fits a toolkit's CUDA version.
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cudnnctl {

/// One CUDA folder of NVIDIA's Windows cuDNN installer that holds cuDNN.
struct InstallerCopy {
  std::string release;            // "9.1": the v9.1 folder
  std::string cuda;               // "12.4": the CUDA folder under bin
  std::string dir;                // the DLL folder as that machine writes it: C:\Program Files\NVIDIA\CUDNN\v9.1\bin\12.4
  std::string local;              // the same folder here
  std::vector<std::string> dlls;  // its cuDNN DLLs
  std::string version;            // the main DLL's version resource ("9.1.0.70"); empty when unread
  bool on_path = false;           // that machine's PATH names the folder
};

/// How the installer's folders are read: a folder's names, and a DLL's file version ("" when unread).
struct InstallerListing {
  std::function<std::vector<std::string>(const std::string& local_dir)> list_dir;
  std::function<std::string(const std::string& local_file)> file_version;
};

/// <ProgramFiles>\NVIDIA\CUDNN as that machine writes it: `program_files` (%ProgramFiles%), else C:\Program Files.
std::string installer_root(const std::optional<std::string>& program_files);

/// The installer's copies under `root` (<ProgramFiles>\NVIDIA\CUDNN as that machine writes it; `root_local` the
/// same folder here), by release then CUDA folder. A hostile or odd tree is read only so far (64 names a folder).
/// `path_dirs`: that machine's PATH entries (on_path is set against them); `release_bins_on_path` receives the
/// installer's own ...\v9.x\bin entries that PATH holds (folders without DLLs).
std::vector<InstallerCopy> list_installer_copies(const std::string& root, const std::string& root_local, const InstallerListing& listing,
                                                 const std::vector<std::string>& path_dirs,
                                                 std::vector<std::string>* release_bins_on_path = nullptr);

/// The copy that fits a toolkit of CUDA `toolkit_cuda` ("12.4" or "12"): within each release the CUDA folder
/// fitting_cuda_folder picks; of those, one on PATH first (what programs load), else the newest release's. Null: none.
/// `copies` as list_installer_copies returns them (by release).
const InstallerCopy* fitting_installer_copy(const std::vector<InstallerCopy>& copies, const std::string& toolkit_cuda);

/// This machine's disk as the listing (std::filesystem, the PE reader's version resource).
InstallerListing installer_listing_here();

} // namespace cudnnctl
