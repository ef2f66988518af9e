#pragma once
// The command line as UTF-8, whatever the system's code page.
#include <string>
#include <vector>

namespace cudnnctl::platform {

/// The arguments after the program name, in UTF-8. On Windows they come from GetCommandLineW (so
/// `C:\我的 cuDNN\` survives any ANSI code page) and the console is switched to UTF-8 output;
/// elsewhere they are argv as given.
std::vector<std::string> utf8_arguments(int argc, char** argv);

} // namespace cudnnctl::platform
