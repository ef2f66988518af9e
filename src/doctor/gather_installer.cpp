// NVIDIA's Windows cuDNN installer's copies (env/installer_copies.hpp), for files.windows_installer: listed through
// the DoctorSystem seam on this Windows machine or on a mounted Windows tree, and that machine's PATH against them.
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/env/installer_copies.hpp"

namespace cudnnctl {

void gather_windows_installer(DoctorFacts& f, DoctorSystem& sys) {
  auto& in = f.installer;
  if (in.root_local.empty()) return;
  in.gathered = true;
  std::vector<std::string> path_dirs;
  for (const auto& sd : f.win.path) path_dirs.push_back(sd.dir);
  const InstallerListing listing{[&sys](const std::string& dir) { return sys.list_dir(dir); },
                                 [&sys](const std::string& file) {
                                   const auto pe = sys.read_pe(file);
                                   return pe ? pe->file_version : std::string();
                                 }};
  in.copies = list_installer_copies(in.root, in.root_local, listing, path_dirs, &in.bin_on_path);
}

}  // namespace cudnnctl
