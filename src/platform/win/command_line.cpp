#include "cudnnctl/platform/command_line.hpp"

#include <windows.h>
#include <shellapi.h>

#include "wide.hpp"

namespace cudnnctl::platform {

std::vector<std::string> utf8_arguments(int argc, char** argv) {
  SetConsoleOutputCP(CP_UTF8);  // our output is UTF-8; without this a console shows it in the OEM code page
  int n = 0;
  wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &n);
  if (!wide) return {argv + (argc > 0 ? 1 : 0), argv + argc};
  std::vector<std::string> args;
  for (int i = 1; i < n; ++i) args.push_back(win::narrow(wide[i]));
  LocalFree(wide);
  return args;
}

} // namespace cudnnctl::platform
