#pragma once

namespace cudnnctl::platform {

/// What standard error can show. Progress is drawn only where `live` is true: standard output and
/// standard error are both an interactive terminal (not a pipe, a file or a CI log), not TERM=dumb. `color` adds that NO_COLOR is unset or empty
/// and that the terminal takes ANSI escapes (a Windows console gets virtual-terminal mode turned on,
/// and where that fails no escape is written at all).
struct StderrTerminal {
  bool live = false;
  bool color = false;
};

/// Looks once (and, on Windows, switches the console to UTF-8 and VT mode when it is one).
StderrTerminal stderr_terminal();

/// stderr_terminal().live
bool stderr_is_terminal();

} // namespace cudnnctl::platform
