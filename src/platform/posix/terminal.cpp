#include "cudnnctl/platform/terminal.hpp"

#include <cstdlib>
#include <cstring>

#include <unistd.h>

namespace cudnnctl::platform {

StderrTerminal stderr_terminal() {
  StderrTerminal t;
  const char* term = std::getenv("TERM");
  // both: with the output sent to a file or a pipe (`> log`, `| tee`, --json), the run is being recorded
  t.live = isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
  const char* no_color = std::getenv("NO_COLOR");  // https://no-color.org: set and not empty
  t.color = t.live && !(no_color && *no_color);
  return t;
}

bool stderr_is_terminal() { return stderr_terminal().live; }

} // namespace cudnnctl::platform
