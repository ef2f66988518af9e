#pragma once
// The setup functions of every command (each defined in src/commands/<name>.cpp).
#include "cudnnctl/commands/command.hpp"

namespace cudnnctl {

CommandRun setup_inspect(CLI::App& sub, Io& io);
CommandRun setup_verify(CLI::App& sub, Io& io);
CommandRun setup_extract(CLI::App& sub, Io& io);
CommandRun setup_install(CLI::App& sub, Io& io);
CommandRun setup_uninstall(CLI::App& sub, Io& io);
CommandRun setup_path(CLI::App& sub, Io& io);
CommandRun setup_doctor(CLI::App& sub, Io& io);
CommandRun setup_probe(CLI::App& sub, Io& io);
CommandRun setup_bench(CLI::App& sub, Io& io);
CommandRun setup_workload_child(CLI::App& sub, Io& io);

} // namespace cudnnctl
