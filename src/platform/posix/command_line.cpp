#include "cudnnctl/platform/command_line.hpp"

namespace cudnnctl::platform {

std::vector<std::string> utf8_arguments(int argc, char** argv) { return {argv + (argc > 0 ? 1 : 0), argv + argc}; }

} // namespace cudnnctl::platform
