#pragma once

namespace cudnnctl::platform {

/// True when standard error is an interactive terminal (progress bars are drawn only then).
bool stderr_is_terminal();

} // namespace cudnnctl::platform
