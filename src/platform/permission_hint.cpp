#include "cudnnctl/platform/permission_hint.hpp"

#include "cudnnctl/platform/process.hpp"

namespace cudnnctl::platform {

std::string permission_hint() {
  if (!is_privileged()) return "permission denied: run as root (sudo) on Linux, or from an elevated prompt on Windows";
  return "permission denied although cudnnctl already runs as root (elevated): the file or folder may be immutable (lsattr shows 'i'; "
         "chattr -i clears it), on a read-only mount, or refused by a security module (SELinux, AppArmor); on Windows another "
         "program may hold it open";
}

} // namespace cudnnctl::platform
