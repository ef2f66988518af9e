// doctor --fix's output: the plan (each automatic step, the command it amounts to and what it changes; the
// printed fixes), then each step's result and the fixed checks before and after. Text and JSON.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/doctor/fix.hpp"

namespace cudnnctl {

namespace {

std::string verdicts(const DoctorReport& r, const std::string& id) {
  std::string out;
  for (const auto& c : r.checks)
    if (c.id == id)  // --check's skip for a check that found nothing is said as that
      out +=
          fmt::format("{}{}", out.empty() ? "" : ", ",
                      c.status == CheckStatus::skip && c.finding.find("made no finding") != std::string::npos ? "no finding" : to_string(c.status));
  return out.empty() ? std::string("no finding") : out;
}

nlohmann::json step_json(const FixStep& s) {
  return {{"check", s.check},     {"operation", std::string(to_string(s.operation))},
          {"target", s.target},   {"archive", s.archive.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.archive)},
          {"command", s.command}, {"changes", s.changes}};
}

nlohmann::json statuses(const DoctorReport& r, const std::string& id) {
  auto out = nlohmann::json::array();
  for (const auto& c : r.checks)
    if (c.id == id) out.push_back({{"status", std::string(to_string(c.status))}, {"finding", c.finding}});
  return out;
}

}  // namespace

std::string fix_plan_text(const FixPlan& plan) {
  std::string out;
  if (plan.steps.empty()) out += "nothing to fix automatically\n";
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const auto& s = plan.steps[i];
    out += fmt::format("{}. {} (automatic): {}\n", i + 1, s.check, s.command);
    for (const auto& c : s.changes) out += fmt::format("     {}\n", c);
  }
  for (const auto& p : plan.printed)
    out += fmt::format("-  {} ({}, printed only{}): {}\n", p.check, to_string(p.status), p.why.empty() ? "" : ": " + p.why,
                       p.fix.empty() ? std::string("see the finding") : p.fix);
  return out;
}

std::string doctor_fix_text(const DoctorFixOutcome& o) {
  std::string out = "plan:\n" + fix_plan_text(o.plan);
  if (o.dry_run) return out + "--dry-run: nothing was changed\n";
  if (o.declined) return out + "declined: nothing was changed\n";
  for (const auto& s : o.settled) out += "settled " + s + "\n";
  for (const auto& r : o.results) out += fmt::format("{} {}: {}\n", r.applied ? "fixed " : "FAILED", r.step.check, r.message);
  for (const auto& id : o.fixed_checks) out += fmt::format("{}: before {}; after {}\n", id, verdicts(o.before, id), verdicts(o.after, id));
  if (!o.results.empty()) out += fmt::format("{}\n", doctor_fix_exit_code(o) == ExitCode::ok ? "every fixed check passes now" : "problems remain");
  return out;
}

nlohmann::json doctor_fix_json(const DoctorFixOutcome& o) {
  auto steps = nlohmann::json::array();
  for (const auto& s : o.plan.steps) steps.push_back(step_json(s));
  auto printed = nlohmann::json::array();
  for (const auto& p : o.plan.printed)
    printed.push_back({{"check", p.check},
                       {"status", std::string(to_string(p.status))},
                       {"fix", p.fix},
                       {"why_not_automatic", p.why.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.why)}});
  auto results = nlohmann::json::array();
  for (const auto& r : o.results)
    results.push_back({{"check", r.step.check},
                       {"operation", std::string(to_string(r.step.operation))},
                       {"applied", r.applied},
                       {"message", r.message},
                       {"error", r.error_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.error_id)}});
  auto checks = nlohmann::json::array();
  for (const auto& id : o.fixed_checks) checks.push_back({{"id", id}, {"before", statuses(o.before, id)}, {"after", statuses(o.after, id)}});
  return {{"dry_run", o.dry_run}, {"declined", o.declined}, {"settled", o.settled}, {"plan", {{"steps", steps}, {"printed", printed}}},
          {"results", results},   {"checks", checks}};
}

}  // namespace cudnnctl
