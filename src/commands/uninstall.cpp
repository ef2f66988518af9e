// cudnnctl uninstall: cudnnctl's own install undone from its receipt, originals restored.
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/env/toolkit_json.hpp"
#include "cudnnctl/install/installer.hpp"

namespace cudnnctl {

CommandRun setup_uninstall(CLI::App& sub, Io&) {
  auto cuda_path = std::make_shared<std::string>();
  sub.add_option("--cuda-path", *cuda_path, "The CUDA toolkit to uninstall from (default: found from the environment)");
  return [cuda_path](Io& io) -> Result<ExitCode> {
    std::string reason;
    CUDNNCTL_TRY_ASSIGN(const auto toolkit, Machine().select_toolkit(*cuda_path, std::nullopt, reason));
    auto fs = make_real_fs();
    CUDNNCTL_TRY_ASSIGN(const auto outcome, uninstall_cudnn(toolkit, *fs));
    if (!outcome.recovered.empty()) io.warn(outcome.recovered);
    if (io.json) {
      io.set_body(nlohmann::json{{"changed", outcome.changed},
                               {"summary", outcome.summary},
                               {"removed", outcome.removed},
                               {"restored", outcome.restored},
                               {"kept", outcome.kept},
                               {"recovered", outcome.recovered.empty() ? nlohmann::json(nullptr) : nlohmann::json(outcome.recovered)},
                               {"toolkit", toolkit_json(toolkit, reason)}});
    } else {
      io.out << outcome.summary << "\n";
    }
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
