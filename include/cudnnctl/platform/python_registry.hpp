#pragma once
// PEP 514: the Pythons Windows installers register, HKEY_CURRENT_USER and HKEY_LOCAL_MACHINE (both registry
// views) Software\Python\<company>\<tag>\InstallPath's default value. Empty elsewhere (posix/) and where
// nothing is registered.
#include <string>
#include <vector>

namespace cudnnctl::platform {

/// Each registered Python's install folder (a prefix: <it>\Lib\site-packages), in registry order, repeats
/// kept once; the launcher's own entry (company PyLauncher) left out. Bounded: at most 64 companies, 64 tags each.
std::vector<std::string> registered_python_prefixes();

}  // namespace cudnnctl::platform
