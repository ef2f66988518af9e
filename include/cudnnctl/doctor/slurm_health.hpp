#pragma once
// doctor --slurm-health: what a Slurm HealthCheckProgram does with the doctor's report. The decision is a pure
// function of the report and the node's state as `scontrol show node` prints it; running scontrol is
// slurm_node.hpp's. Like LBNL NHC with its "NHC:" prefix, a node is resumed only when
// the reason it is drained for is ours ("cudnnctl: ..."), so an administrator's drain is never undone.
#include <optional>
#include <string>
#include <string_view>

#include "cudnnctl/doctor/doctor.hpp"

namespace cudnnctl {

/// The prefix of every reason cudnnctl drains a node with.
inline constexpr std::string_view slurm_reason_prefix = "cudnnctl:";
/// The longest reason cudnnctl writes (one line, printable ASCII): short enough for `sinfo -R`.
inline constexpr std::size_t slurm_reason_max = 100;

/// A node as `scontrol show node NAME` describes it: its state ("IDLE+DRAIN", "MIXED", "DOWN+NOT_RESPONDING")
/// and the reason it was drained or set down, without Slurm's " [user@time]" suffix (empty when none).
struct SlurmNodeState {
  std::string name;
  std::string state;
  std::string reason;
  bool drained() const;  // DRAIN or DOWN: no new jobs start on it
};

/// Reads `scontrol show node NAME` output (several lines, or one with -o); nullopt when it names no state.
std::optional<SlurmNodeState> parse_scontrol_node(std::string_view text);

enum class SlurmAction { none, drain, resume };
std::string_view to_string(SlurmAction a);

struct SlurmDecision {
  SlurmAction action = SlurmAction::none;
  std::string reason;  // the drain reason (action drain)
  std::string why;     // one line for the human output and --json
};

/// The drain reason for the report's first failed check: "cudnnctl: <check id>: <finding, shortened>",
/// "(+N more)" when more failed; one line, printable ASCII, at most slurm_reason_max characters.
std::string slurm_drain_reason(const DoctorReport& report);

/// A failed check drains the node (unless someone else drained it: their reason stays; or it is drained
/// for this very reason already); no failed check resumes it only when its reason starts with "cudnnctl:".
SlurmDecision decide_slurm_health(const DoctorReport& report, const SlurmNodeState& node);

} // namespace cudnnctl
