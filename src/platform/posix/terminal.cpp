#include "cudnnctl/platform/terminal.hpp"

#include <unistd.h>

namespace cudnnctl::platform {

bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

} // namespace cudnnctl::platform
