// doctor --slurm-health: scontrol show node, the decision, scontrol update (commands/slurm_health_run.hpp).
#include "cudnnctl/commands/slurm_health_run.hpp"

#include <CLI/CLI.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/platform/dynlib.hpp"

namespace cudnnctl {

namespace {

constexpr std::size_t scontrol_output_max = 64 * 1024;  // one node's description is under 2 KiB

std::string first_line(const std::string& text) {
  auto line = text.substr(0, text.find('\n'));
  if (line.size() > 200) line = line.substr(0, 200) + "...";
  return line;
}

Result<std::string> run_scontrol(const std::vector<std::string>& argv) {
  const auto hint = std::string("--slurm-health runs Slurm's scontrol from PATH as the user Slurm runs the HealthCheckProgram as (root); "
                                "check that `scontrol show node` works there");
  auto r = platform::run_child(argv, {}, slurm_command_timeout_ms);
  if (!r) return fail(ErrorCode::slurm_failed, fmt::format("cannot run '{}': {}", argv[0], r.error().message), hint);
  if (r->timed_out)
    return fail(ErrorCode::slurm_failed, fmt::format("'{}' did not answer within {} s", fmt::join(argv, " "), slurm_command_timeout_ms / 1000),
                "is slurmctld reachable from this node? " + hint);
  if (r->out.size() > scontrol_output_max || r->err.size() > scontrol_output_max)
    return fail(ErrorCode::slurm_failed, fmt::format("'{}' printed more than {} KiB, more than any node's description", argv[0], scontrol_output_max / 1024), hint);
  if (r->exit_code == 127 && r->out.empty() && r->err.empty())
    return fail(ErrorCode::slurm_failed, fmt::format("'{}' could not be run: it is not on PATH", argv[0]), "install Slurm's client commands (Debian: slurm-client) or put scontrol on PATH");
  if (r->signal != 0 || r->exit_code != 0)
    return fail(ErrorCode::slurm_failed,
                fmt::format("'{}' failed (exit status {}): {}", fmt::join(argv, " "), r->signal ? 128 + r->signal : r->exit_code, first_line(r->err + r->out)), hint);
  return r->out;
}

Result<std::string> short_hostname() {
  auto r = platform::run_child({"hostname", "-s"}, {}, 5000);
  std::string name = r && r->exit_code == 0 && !r->timed_out ? first_line(r->out) : std::string();
  while (!name.empty() && (name.back() == '\r' || name.back() == ' ')) name.pop_back();
  if (name.empty() || name.find_first_of(" \t\"'=") != std::string::npos)
    return fail(ErrorCode::slurm_failed, "cannot tell this node's name: `hostname -s` gave none", "name it: --slurm-node NAME (its NodeName in slurm.conf)");
  return name;
}

} // namespace

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

Result<SlurmHealthOutcome> run_slurm_health(const DoctorReport& report, std::string node) {
  if (node.empty()) {
    CUDNNCTL_TRY_ASSIGN(node, short_hostname());
  }
  CUDNNCTL_TRY_ASSIGN(const auto shown, run_scontrol({"scontrol", "show", "node", node}));
  auto state = parse_scontrol_node(shown);
  if (!state)
    return fail(ErrorCode::slurm_failed, fmt::format("`scontrol show node {}` printed no State= for the node", node),
                "check the node's name (--slurm-node NAME: its NodeName in slurm.conf)");
  if (state->name.empty()) state->name = node;
  SlurmHealthOutcome out{*state, decide_slurm_health(report, *state)};
  if (out.decision.action == SlurmAction::drain) {
    CUDNNCTL_TRY(run_scontrol({"scontrol", "update", "NodeName=" + node, "State=DRAIN", "Reason=" + out.decision.reason}));
  } else if (out.decision.action == SlurmAction::resume) {
    CUDNNCTL_TRY(run_scontrol({"scontrol", "update", "NodeName=" + node, "State=RESUME"}));
  }
  return out;
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
