// doctor --slurm-health and --slurm-reason: their options and output (the scontrol calls: doctor/slurm_node.cpp).
#include "cudnnctl/commands/slurm_health_run.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cudnnctl/commands/command.hpp"

namespace cudnnctl {

void add_slurm_health_options(CLI::App& sub, SlurmHealthOptions& o) {
  auto health = sub.add_flag("--slurm-health", o.health,
                             "As Slurm's HealthCheckProgram: drain this node when a check fails (Reason 'cudnnctl: <check>: ...'), resume it "
                             "when none fails and its reason is cudnnctl's; runs scontrol; implies --no-gpu");
  auto reason = sub.add_flag("--slurm-reason", o.reason_only,
                             "Print only the drain reason of the first failed check (nothing when none failed) and exit as doctor does; "
                             "for NHC checks and prologs; implies --no-gpu")->excludes(health);
  sub.add_option("--slurm-node", o.node, "With --slurm-health: the node's NodeName (default: `hostname -s`)")->needs(health);
  sub.add_flag("--slurm-gpu", o.gpu, "With --slurm-health or --slurm-reason: run the GPU workload (layer 5) too");
  (void)reason;
}

ExitCode slurm_reason_only(const DoctorReport& report, Io& io) {
  const auto reason = slurm_drain_reason(report);
  if (io.json) {
    auto body = doctor_json(report);
    body["slurm"] = {{"reason", reason}};
    io.set_body(std::move(body));
  } else if (!reason.empty()) {
    io.out << reason << "\n";
  }
  return doctor_exit_code(report);
}

nlohmann::json slurm_health_json(const SlurmHealthOutcome& o) {
  return {{"node", o.before.name},
          {"state_before", o.before.state},
          {"reason_before", o.before.reason},
          {"action", to_string(o.decision.action)},
          {"reason", o.decision.reason},
          {"why", o.decision.why}};
}

std::string slurm_health_text(const SlurmHealthOutcome& o) {
  return fmt::format("slurm    node {} ({}): {}\n", o.before.name, o.before.state, o.decision.why);
}

} // namespace cudnnctl
