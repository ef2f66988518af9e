// Windows' Apps list exists only on Windows.
#include "cudnnctl/platform/uninstall_entries.hpp"

namespace cudnnctl::platform {

std::vector<UninstallEntry> uninstall_entries() { return {}; }

}  // namespace cudnnctl::platform
