#pragma once
// doctor --slurm-health's effect: the node's state from `scontrol show node`, the decision
// (doctor/slurm_health), and the `scontrol update` that carries it out.
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/exit_code.hpp"
#include "cudnnctl/doctor/slurm_health.hpp"

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

struct SlurmHealthOutcome {
  SlurmNodeState before;
  SlurmDecision decision;
};

/// Each scontrol run is stopped after this long: two runs stay well under the 60 s after which Slurm (22.05)
/// kills a HealthCheckProgram.
inline constexpr int slurm_command_timeout_ms = 15000;

/// Asks scontrol (on PATH) for `node` (empty: `hostname -s`), decides, and drains or resumes it.
Result<SlurmHealthOutcome> run_slurm_health(const DoctorReport& report, std::string node);
struct Io;
/// --slurm-reason: the drain reason alone on stdout (nothing when no check failed), or with --json the doctor's
/// document with "slurm": {"reason": ...}; the doctor's exit code.
ExitCode slurm_reason_only(const DoctorReport& report, Io& io);
nlohmann::json slurm_health_json(const SlurmHealthOutcome& outcome);
std::string slurm_health_text(const SlurmHealthOutcome& outcome);

} // namespace cudnnctl
