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

} // namespace cudnnctl
