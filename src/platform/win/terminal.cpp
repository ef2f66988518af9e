#include "cudnnctl/platform/terminal.hpp"

#include <io.h>
#include <stdio.h>

namespace cudnnctl::platform {

bool stderr_is_terminal() { return _isatty(_fileno(stderr)) != 0; }

} // namespace cudnnctl::platform
