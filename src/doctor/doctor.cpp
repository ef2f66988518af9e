// The doctor: gather the facts the selected layers need, once, then run the check table over them.
#include "cudnnctl/doctor/doctor.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/env/display_path.hpp"
#include "cudnnctl/env/loader_path.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace {

bool selected(const DoctorOptions& o, int layer) { return o.only_layer == 0 || o.only_layer == layer; }

bool wanted(const DoctorOptions& o, std::string_view id) {
  return o.only_checks.empty() || std::find(o.only_checks.begin(), o.only_checks.end(), id) != o.only_checks.end();
}

bool row_selected(const DoctorOptions& o, const CheckSpec& row) {
  if (!selected(o, row.layer)) return false;
  if (o.only_checks.empty()) return true;
  return std::any_of(o.only_checks.begin(), o.only_checks.end(), [&](const std::string& id) { return row_reports(row, id); });
}

/// --check: exactly the checks asked for, in the order asked; one that its row did not report (its layer
/// could not run) is a skip that says why.
void keep_asked_checks(const DoctorOptions& o, const std::string& why_skipped, Checks& checks) {
  Checks kept;
  for (const auto& id : o.only_checks) {
    bool found = false;
    for (const auto& c : checks)
      if (c.id == id) kept.push_back(c), found = true;
    if (!found) {
      const auto* row = find_check(id);
      kept.push_back(make_check(id, row ? row->layer : 1, CheckStatus::skip,
                                "skipped: " + (why_skipped.empty() ? fmt::format("{} made no finding of this kind for this set-up", row ? row->id : "its check") : why_skipped)));
    }
  }
  checks = std::move(kept);
}

void skip_layers_from(int first, const std::string& why, const DoctorOptions& o, Checks& out) {
  for (int l = first; l <= 5; ++l)
    if (selected(o, l)) out.push_back(make_check(fmt::format("{}.skipped", layer_id_prefix(l)), l, CheckStatus::skip, "skipped: " + why));
}

} // namespace

DoctorReport run_doctor(const DoctorOptions& o, const platform::Environment& env, DoctorSystem& system) {
  const auto needs = o.only_checks.empty() ? needs_for_layer(o.only_layer, o.offline) : needs_for_checks(o.only_checks, o.offline);
  const auto gathered = [&] {
    log::Phase phase("doctor: gather facts");
    return std::make_shared<const DoctorFacts>(gather_facts(o, env, system, needs));
  }();
  const auto& facts = *gathered;
  log::info("doctor: toolkit {}, {}", facts.tk() ? facts.tk()->root : std::string("(none)"),
            facts.offline ? "offline (files only: no probe, no GPU)" : "on this machine");
  log::Phase checks_phase("doctor: checks");
  DoctorReport report;
  report.toolkit = facts.tk() ? std::optional(*facts.tk()) : std::nullopt;
  report.offline = facts.offline;
  if (facts.tk() && facts.header)
    report.cudnn = CudnnFound{facts.header->text(), facts.header->major, facts.tk()->major(),
                              facts.receipt.state == ReceiptFacts::State::missing ? "unrecorded" : "cudnnctl"};
  for (const auto& spec : check_table()) {
    if (!row_selected(o, spec)) continue;
    if (spec.layer > 1 && !facts.tk()) continue;
    spec.run(facts, report.checks);
  }
  const std::string no_toolkit =
      facts.tk() ? std::string{} : facts.toolkit.chosen ? "the toolkit is not for the --target platform (layer 1)" : "no CUDA toolkit was found (layer 1)";
  if (!o.only_checks.empty()) keep_asked_checks(o, no_toolkit, report.checks);
  else if (!facts.tk()) skip_layers_from(2, no_toolkit, o, report.checks);
  // every command a fix prints runs as printed on the toolkit that was checked (its --cuda-path named; a
  // Windows tree read from Linux is named only when its path on that machine is known)
  if (const auto* t = facts.tk())
    for (auto& c : report.checks)
      if (!c.fix.empty()) c.fix = with_toolkit_named(c.fix, t->os == Os::windows ? windows_toolkit_path_on_its_machine(t->root) : t->root);
  report.search = facts.search;
  report.search_origin = facts.search_origin;
  report.notes = facts.notes;
  report.facts = gathered;
  std::erase_if(report.checks, [&](const Check& c) { return !selected(o, c.layer) || !wanted(o, c.id); });
  return report;
}

DoctorReport run_doctor(const DoctorOptions& options, const platform::Environment& env) {
  // one machine for the run (the caller's, when it shares one): its loader reads the ld.so cache once for the
  // doctor and the caller alike, and the probe's GPUs are handed to it
  auto o = options;
  o.machine = doctor_machine(o, env, o.driver_library);
  const auto system = make_real_system(o.self_exe, o.system_root, o.machine);
  auto report = run_doctor(o, env, *system);
  report.host = platform::host_name();
  return report;
}

} // namespace cudnnctl
