#pragma once
// Whether the load check (bundle_probe: a child process loads the libraries) can run on this machine at all:
// Linux cannot load a Windows DLL, nor Windows a Linux shared library. A WSL user can point cudnnctl at a
// Windows environment (/mnt/c/.../torch/lib); then the check says so and names what would run it:
// cudnnctl.exe on Windows, or the same started from WSL through its Windows interop.
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

/// Why libraries built for `libraries` cannot be loaded by a process on `host` ("Linux cannot load a Windows
/// DLL"); nullopt when they can (the same OS).
std::optional<std::string> load_check_impossible(Os libraries, Os host);

/// Where a Windows program could be started from here: WSL's interop is registered with binfmt_misc
/// (`<binfmt_misc>/WSLInterop` or `WSLInterop-late`), and the cudnnctl.exe found beside `self` or in a
/// folder of PATH ("" when none).
struct WindowsInterop {
  bool available = false;
  std::string cudnnctl_exe;
};
WindowsInterop find_windows_interop(const platform::Environment& env, const std::string& self,
                                    const std::string& binfmt_misc = "/proc/sys/fs/binfmt_misc");

/// What would run the check, in words: `args` (the command's arguments after "cudnnctl", paths as given
/// here) as a command for the libraries' OS, with /mnt/<letter>/ paths written as Windows paths; through
/// WSL interop with the cudnnctl.exe found, when there is one.
std::string load_check_runner(Os libraries, const std::vector<std::string>& args, const WindowsInterop& interop);

} // namespace cudnnctl
