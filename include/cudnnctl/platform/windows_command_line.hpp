#pragma once
// A Windows command line from an argument list, quoted so that the program's C runtime
// (CommandLineToArgvW, the MSVC and mingw start-up code) splits it back into exactly these arguments.
// Plain string logic (UTF-8 in, UTF-8 out), so it is tested on every platform; CreateProcessW callers widen it.
#include <string>
#include <vector>

namespace cudnnctl::platform {

/// One argument after the program name: unchanged when it has no space, tab, newline, vertical tab or
/// '"' and is not empty; else in quotes, each '"' preceded by a backslash and the backslashes before a
/// '"' (or before the closing quote) doubled.
std::string quote_windows_argument(const std::string& arg);

/// The program name (argv[0]) is split by other rules: up to the next space outside quotes, with no
/// escapes. It is quoted when it is empty or has a space or tab; '"' cannot occur in a Windows file name
/// and is dropped.
std::string quote_windows_program(const std::string& program);

/// The whole command line: the program, then each argument, separated by single spaces.
std::string windows_command_line(const std::vector<std::string>& argv);

} // namespace cudnnctl::platform
