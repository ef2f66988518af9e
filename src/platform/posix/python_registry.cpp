// PEP 514's registry entries exist only on Windows.
#include "cudnnctl/platform/python_registry.hpp"

namespace cudnnctl::platform {

std::vector<std::string> registered_python_prefixes() { return {}; }

}  // namespace cudnnctl::platform
