#pragma once
// Where Windows keeps Pythons, for the bundle search when no interpreter on PATH names them (a Windows
// machine has no /usr/local/lib/python3*): the folders PEP 514's registry entries name, python.org's
// per-user (%LOCALAPPDATA%\Programs\Python\Python3*) and all-users (%ProgramFiles%\Python3*) installs, the
// user sites (%APPDATA%\Python\Python3*\site-packages), and conda's default folders (%USERPROFILE%\miniconda3,
// anaconda3, miniforge3, mambaforge, %ProgramData%\miniconda3, anaconda3, miniforge3, and their envs\*).
#include <string>
#include <vector>

#include "cudnnctl/bundle/python_sites.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

/// The site folders of those places that exist (`disk` asked), in the order above, each once (case ignored).
/// `registered`: the prefixes PEP 514's entries name (platform/python_registry.hpp), read by the caller.
std::vector<std::string> windows_python_sites(const platform::Environment& env, const std::vector<std::string>& registered, PythonDisk& disk);

}  // namespace cudnnctl
