#pragma once
// doctor --slurm-health and --slurm-reason: the options and what they print; the scontrol calls are the doctor
// module's (doctor/slurm_node.hpp).
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/exit_code.hpp"
#include "cudnnctl/doctor/slurm_node.hpp"

namespace CLI {
class App;
}

namespace cudnnctl {

struct SlurmHealthOptions {
  bool health = false;       // --slurm-health: drain or resume this node through scontrol
  bool reason_only = false;  // --slurm-reason: print the drain reason only (NHC, prologs); no scontrol
  bool gpu = false;          // --slurm-gpu: run the GPU workload too (both imply --no-gpu without it)
  std::string node;          // --slurm-node; empty: `hostname -s`
  bool any() const { return health || reason_only; }
};
/// Adds --slurm-health, --slurm-reason, --slurm-node and --slurm-gpu to the doctor command.
void add_slurm_health_options(CLI::App& doctor, SlurmHealthOptions& options);

struct Io;
/// --slurm-reason: the drain reason alone on stdout (nothing when no check failed), or with --json the doctor's
/// document with "slurm": {"reason": ...}; the doctor's exit code.
ExitCode slurm_reason_only(const DoctorReport& report, Io& io);
nlohmann::json slurm_health_json(const SlurmHealthOutcome& outcome);
std::string slurm_health_text(const SlurmHealthOutcome& outcome);

} // namespace cudnnctl
