#pragma once
// doctor --slurm-health's effect: the node's state from `scontrol show node` (Slurm's client on PATH), the decision
// (slurm_health.hpp, a pure function of the report and that state), and the `scontrol update` that carries it out.
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/doctor/slurm_health.hpp"

namespace cudnnctl {

struct SlurmHealthOutcome {
  SlurmNodeState before;
  SlurmDecision decision;
};

/// Each scontrol run is stopped after this long: two runs stay well under the 60 s after which Slurm (22.05)
/// kills a HealthCheckProgram.
inline constexpr int slurm_command_timeout_ms = 15000;

/// Asks scontrol (on PATH) for `node` (empty: `hostname -s`), decides, and drains or resumes it.
Result<SlurmHealthOutcome> run_slurm_health(const DoctorReport& report, std::string node);

} // namespace cudnnctl
