// The doctor: gather the facts the selected layers need, once, then run the check table over them.
#include "cudnnctl/doctor/doctor.hpp"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/doctor/stack_checks.hpp"

namespace cudnnctl {

namespace {

bool selected(const DoctorOptions& o, int layer) { return o.only_layer == 0 || o.only_layer == layer; }

void skip_layers_from(int first, const std::string& why, const DoctorOptions& o, Checks& out) {
  static constexpr const char* ids[] = {"", "toolkit", "files", "loader", "driver", "workload"};
  for (int l = first; l <= 5; ++l)
    if (selected(o, l)) out.push_back(make_check(fmt::format("{}.skipped", ids[l]), l, CheckStatus::skip, "skipped: " + why));
}

// Issue 20's whole-stack checks (stack_checks.hpp: the toolkit's and the wheels' CUDA libraries, cuda-compat,
// WSL2, CUDNN_PATH), for a Linux toolkit of this machine; each placed after the last check of its layer.
void add_stack_checks(const DoctorFacts& f, const platform::Environment& env, Checks& out) {
  StackInputs in;
  in.toolkit_lib_dir = f.lib_dir;
  in.toolkit_cuda_major = static_cast<unsigned>(std::strtoul(f.tk()->major().c_str(), nullptr, 10));
  in.driver_version_file = f.driver_version_file;
  if (f.search)
    for (const auto& c : f.search->copies)
      if (c.wins) in.loader_cudnn_dir = c.dir;
  for (auto& c : stack_checks(in, env)) {
    auto at = std::find_if(out.begin(), out.end(), [&](const Check& x) { return x.layer > c.layer; });
    out.insert(at, std::move(c));
  }
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
  if (facts.tk() && !facts.offline && facts.host_os == Os::linux_os && facts.model == LoaderModel::linux_elf)
    add_stack_checks(facts, env, report.checks);
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
