#include "cudnnctl/env/display_path.hpp"

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/env/windows_mount.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

std::string windows_toolkit_path_for(const std::string& path, Os host) {
  if (host == Os::windows) return with_backslashes(path);
  // /mnt/c/CUDA/v13.0/bin/x64 is C:\CUDA\v13.0\bin\x64 to the Windows side that reads PATH
  if (auto drive = WindowsMount::infer_from_wsl_path(path))
    return std::string(1, drive->first) + ":" + with_backslashes(path.size() > drive->second.size() ? path.substr(drive->second.size()) : "/");
  return path;
}

std::string windows_toolkit_path_here(const std::string& path) {
  return windows_toolkit_path_for(path, platform::detect_host().os);
}

std::string windows_toolkit_path_on_its_machine(const std::string& path) {
  if (platform::detect_host().os == Os::windows) return with_backslashes(path);
  if (WindowsMount::infer_from_wsl_path(path)) return windows_toolkit_path_for(path, Os::linux_os);
  return {};
}

} // namespace cudnnctl
