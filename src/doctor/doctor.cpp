// The doctor: gather the facts the selected layers need, once, then run the check table over them.
#include "cudnnctl/doctor/doctor.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/gather.hpp"

namespace cudnnctl {

namespace {

bool selected(const DoctorOptions& o, int layer) { return o.only_layer == 0 || o.only_layer == layer; }

void skip_layers_from(int first, const std::string& why, const DoctorOptions& o, Checks& out) {
  static constexpr const char* ids[] = {"", "toolkit", "files", "loader", "driver", "workload"};
  for (int l = first; l <= 5; ++l)
    if (selected(o, l)) out.push_back(make_check(fmt::format("{}.skipped", ids[l]), l, CheckStatus::skip, "skipped: " + why));
}

} // namespace

DoctorReport run_doctor(const DoctorOptions& o, const platform::Environment& env, DoctorSystem& system) {
  const auto needs = needs_for_layer(o.only_layer, o.offline);
  const auto facts = [&] {
    log::Phase phase("doctor: gather facts");
    return gather_facts(o, env, system, needs);
  }();
  log::info("doctor: toolkit {}, {}", facts.tk() ? facts.tk()->root : std::string("(none)"),
            facts.offline ? "offline (files only: no probe, no GPU)" : "on this machine");
  log::Phase checks_phase("doctor: checks");
  DoctorReport report;
  report.toolkit = facts.tk() ? std::optional(*facts.tk()) : std::nullopt;
  report.offline = facts.offline;
  for (const auto& spec : check_table()) {
    if (!selected(o, spec.layer)) continue;
    if (spec.layer > 1 && !facts.tk()) continue;
    spec.run(facts, report.checks);
  }
  if (!facts.tk())
    skip_layers_from(2, facts.toolkit.chosen ? "the toolkit is not for the --target platform (layer 1)" : "no CUDA toolkit was found (layer 1)", o,
                     report.checks);
  report.search = facts.search;
  report.search_origin = facts.search_origin;
  report.notes = facts.notes;
  std::erase_if(report.checks, [&](const Check& c) { return !selected(o, c.layer); });
  return report;
}

DoctorReport run_doctor(const DoctorOptions& options, const platform::Environment& env) {
  const auto system = make_real_system(options.self_exe);
  return run_doctor(options, env, *system);
}

} // namespace cudnnctl
