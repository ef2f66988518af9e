#pragma once
// The hint for "permission denied": "run as root" only when cudnnctl is not already root (or elevated);
// when it is, what else refuses root (an immutable file, a read-only mount, a security module).
#include <string>

namespace cudnnctl::platform {

std::string permission_hint();

} // namespace cudnnctl::platform
