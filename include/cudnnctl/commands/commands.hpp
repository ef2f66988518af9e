#pragma once
// The setup functions of every command (each defined in src/commands/<name>.cpp).
#include "cudnnctl/commands/command.hpp"

namespace cudnnctl {

CommandRun setup_inspect(CLI::App& sub, Io& io);

} // namespace cudnnctl
