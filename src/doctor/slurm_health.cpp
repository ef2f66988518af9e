// doctor --slurm-health's decision: drain, resume or leave the node (doctor/slurm_health.hpp).
#include "cudnnctl/doctor/slurm_health.hpp"

#include <regex>

#include <fmt/format.h>

namespace cudnnctl {

namespace {

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// One line of printable ASCII, runs of spaces folded, double quotes made single: safe as one argument of
// scontrol and in sinfo's column.
std::string one_line(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    const char put = c == '"' ? '\'' : (c < 0x20 || c >= 0x7f) ? ' ' : ch;
    if (put == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += put;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

} // namespace

bool SlurmNodeState::drained() const { return state.find("DRAIN") != std::string::npos || state.starts_with("DOWN"); }

std::optional<SlurmNodeState> parse_scontrol_node(std::string_view text) {
  SlurmNodeState node;
  bool has_state = false;
  // every "Key=value" is separated by spaces except Reason's value, which has spaces of its own and runs to the
  // end of its line (scontrol prints it last on its line, also with -o)
  std::size_t pos = 0;
  while (pos < text.size()) {
    const auto end = std::min(text.find('\n', pos), text.size());
    const auto line = trim_spaces(text.substr(pos, end - pos));
    pos = end + 1;
    std::size_t word = 0;
    while (word < line.size()) {
      const auto space = std::min(line.find(' ', word), line.size());
      const auto token = line.substr(word, space - word);
      if (token.starts_with("Reason=")) {
        node.reason = std::regex_replace(std::string(line.substr(word + 7)), std::regex(R"(\s*\[[^\]\[]*@[^\]\[]*\]\s*$)"), "");
        break;
      }
      if (token.starts_with("NodeName=") && node.name.empty()) node.name = token.substr(9);
      if (token.starts_with("State=") && !has_state) {
        node.state = token.substr(6);
        has_state = true;
      }
      word = space + 1;
    }
  }
  node.reason = std::string(trim_spaces(node.reason));
  if (node.reason == "(null)" || node.reason == "none") node.reason.clear();
  if (!has_state || node.state.empty()) return std::nullopt;
  return node;
}

std::string_view to_string(SlurmAction a) {
  switch (a) {
  case SlurmAction::none: return "none";
  case SlurmAction::drain: return "drain";
  case SlurmAction::resume: return "resume";
  }
  return "?";
}

std::string slurm_drain_reason(const DoctorReport& report) {
  const Check* first = nullptr;
  int failed = 0;
  for (const auto& c : report.checks) {
    if (c.status != CheckStatus::fail) continue;
    if (!first) first = &c;
    ++failed;
  }
  if (!first) return {};
  const auto more = failed > 1 ? fmt::format(" (+{} more)", failed - 1) : std::string();
  auto head = fmt::format("{} {}: ", slurm_reason_prefix, one_line(first->id));
  auto finding = one_line(first->finding.empty() ? "failed" : first->finding);
  const auto room = slurm_reason_max > head.size() + more.size() ? slurm_reason_max - head.size() - more.size() : 0;
  if (finding.size() > room) finding = finding.substr(0, room >= 3 ? room - 3 : 0) + "...";
  return (head + finding + more).substr(0, slurm_reason_max);
}

SlurmDecision decide_slurm_health(const DoctorReport& report, const SlurmNodeState& node) {
  const bool ours = node.reason.starts_with(slurm_reason_prefix);
  const auto reason = slurm_drain_reason(report);
  if (!reason.empty()) {
    if (node.drained() && !node.reason.empty() && !ours)
      return {SlurmAction::none, {}, fmt::format("a check failed, but the node is drained for another reason ('{}'): left as it is", node.reason)};
    if (node.drained() && node.reason == reason) return {SlurmAction::none, {}, "a check failed; the node is drained for it already"};
    return {SlurmAction::drain, reason, fmt::format("drained: {}", reason)};
  }
  if (node.drained() && ours) return {SlurmAction::resume, {}, fmt::format("no check failed: resumed (it was drained by cudnnctl: '{}')", node.reason)};
  if (node.drained())
    return {SlurmAction::none, {}, fmt::format("no check failed; the node is drained for another reason ('{}'): left as it is", node.reason)};
  return {SlurmAction::none, {}, "no check failed; the node is not drained"};
}

} // namespace cudnnctl
