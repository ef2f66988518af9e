#include "cudnnctl/platform/terminal.hpp"

#include <cstdlib>

#include <windows.h>

namespace cudnnctl::platform {

// A console, not just a character device: _isatty is also true for NUL, where a progress line is noise.
StderrTerminal stderr_terminal() {
  StderrTerminal t;
  HANDLE h = GetStdHandle(STD_ERROR_HANDLE);
  HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
  DWORD mode = 0;
  DWORD out_mode = 0;
  // both: with the output sent to a file or a pipe the run is being recorded
  if (h == INVALID_HANDLE_VALUE || h == nullptr || !GetConsoleMode(h, &mode)) return t;
  if (out == INVALID_HANDLE_VALUE || out == nullptr || !GetConsoleMode(out, &out_mode)) return t;
  t.live = true;
  SetConsoleOutputCP(CP_UTF8);  // names in the lines are UTF-8
  // escapes only where the console interprets them (Windows 10 and later); the older console shows
  // them as text, so there the line is redrawn with '\r' and spaces alone
  const bool vt = (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0 || SetConsoleMode(h, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
  const char* no_color = std::getenv("NO_COLOR");
  t.color = vt && !(no_color && *no_color);
  return t;
}

bool stderr_is_terminal() { return stderr_terminal().live; }

} // namespace cudnnctl::platform
