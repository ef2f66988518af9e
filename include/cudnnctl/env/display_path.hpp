#pragma once
// Paths printed in the form that works where the user is. A Windows-layout toolkit can be handled from
// Linux (a test tree, a mounted disk): its folders are shown with backslashes only on a Windows host;
// under a WSL drive mount (/mnt/c/...) as the C:\... path that Windows itself uses; else as given.
#include <string>

#include "cudnnctl/base/os_arch.hpp"

namespace cudnnctl {

/// A path of a Windows toolkit, for a person on a `host` machine (absolute or relative to the toolkit).
std::string windows_toolkit_path_for(const std::string& path, Os host);
/// The same for this machine.
std::string windows_toolkit_path_here(const std::string& path);
/// The path a command typed on the Windows machine names this Windows toolkit by: the path itself on a
/// Windows host, the C:\... path under a WSL drive mount; empty when that machine's path is unknown (a tree
/// read from Linux through no drive mount), so that a printed command leaves it out.
std::string windows_toolkit_path_on_its_machine(const std::string& path);

} // namespace cudnnctl
