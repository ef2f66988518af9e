// doctor --slurm-health's effect on the cluster: scontrol show node, the decision (slurm_health.cpp), scontrol update.
#include "cudnnctl/doctor/slurm_node.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

} // namespace cudnnctl
