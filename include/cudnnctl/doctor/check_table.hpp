#pragma once
// The doctor's checks, one table. Each row is a function over DoctorFacts (doctor/checks_<layer>.cpp)
// with its id, layer and what it needs gathered. `--layer` and `--offline` pick rows, and the rows picked
// decide what is gathered (no probe or GPU workload unless a picked row needs it).
// Adding a check: write `void check_x(const DoctorFacts&, Checks&)` in the layer's file, declare it below,
// and add one row to the table in check_table.cpp.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/doctor/facts.hpp"

namespace cudnnctl {

using Checks = std::vector<Check>;
using CheckFn = void (*)(const DoctorFacts&, Checks&);

struct CheckSpec {
  std::string_view id;  // the id (or id family: "loader.load" also emits loader.version_checks) it reports
  int layer = 1;
  unsigned needs = need_toolkit;
  CheckFn run = nullptr;
  std::string_view what;  // what it checks, one line (doctor --list-checks, docs/doctor.md)
  std::string_view also;  // other ids this row reports, space-separated (e.g. "loader.version loader.version_checks")
};

/// Every check, in report order.
const std::vector<CheckSpec>& check_table();

/// What the rows of the selected layers need gathered (0: every layer).
unsigned needs_for_layer(int only_layer, bool offline);

/// The row that reports `id` (its own id, or one of its `also` ids); null when no row does.
const CheckSpec* find_check(std::string_view id);
/// Whether `row` reports `id`.
bool row_reports(const CheckSpec& row, std::string_view id);
/// Every id a row reports (its own first, then `also`), in table order.
std::vector<std::string_view> reported_ids(const CheckSpec& row);
/// What the named checks' rows need gathered.
unsigned needs_for_checks(const std::vector<std::string>& ids, bool offline);
/// The layer names' short form used in ids ("toolkit", "files", "loader", "driver", "workload").
std::string_view layer_id_prefix(int layer);
/// The check table for `doctor --list-checks`: text, JSON (schema cudnnctl.doctor-checks/1), and Markdown
/// (docs/doctor.md's list, generated: `cudnnctl __generate doctor-checks`). check_list.cpp.
std::string doctor_checks_text();
nlohmann::json doctor_checks_json();
std::string doctor_checks_markdown();

/// A finding; with a signature id, its cause and fix from the signature table.
Check make_check(std::string id, int layer, CheckStatus status, std::string finding, std::string_view signature_id = {});


// layer 1: checks_toolkit.cpp
void check_toolkit_found(const DoctorFacts&, Checks&);
void check_toolkit_env(const DoctorFacts&, Checks&);
void check_toolkit_target(const DoctorFacts&, Checks&);
void check_toolkit_cuda_vars(const DoctorFacts&, Checks&);
// layer 2: checks_files.cpp
void check_files_interrupted(const DoctorFacts&, Checks&);
void check_files_cudnn(const DoctorFacts&, Checks&);
void check_files_stale(const DoctorFacts&, Checks&);
void check_files_complete(const DoctorFacts&, Checks&);
void check_files_dlls(const DoctorFacts&, Checks&);
void check_files_headers(const DoctorFacts&, Checks&);
void check_files_versions(const DoctorFacts&, Checks&);
void check_files_receipt(const DoctorFacts&, Checks&);
void check_files_search_path(const DoctorFacts&, Checks&);
void check_files_frameworks(const DoctorFacts&, Checks&);
void check_files_cudnn_path(const DoctorFacts&, Checks&);   // checks_stack.cpp
void check_files_glibc_floor(const DoctorFacts&, Checks&);  // checks_release.cpp
void check_files_advisories(const DoctorFacts&, Checks&);   // checks_release.cpp
void check_bundles_found(const DoctorFacts&, Checks&);      // checks_bundles.cpp
void check_bundles_shadow(const DoctorFacts&, Checks&);     // checks_bundles.cpp
void check_bundles_state(const DoctorFacts&, Checks&);      // checks_bundles.cpp
void check_bundles_versions(const DoctorFacts&, Checks&);   // checks_bundles.cpp
// layer 3: checks_loader.cpp
void check_loader_skipped(const DoctorFacts&, Checks&);
void check_loader_needed(const DoctorFacts&, Checks&);
void check_loader_runtime_deps(const DoctorFacts&, Checks&);
void check_loader_load(const DoctorFacts&, Checks&);
void check_stack_cuda_major(const DoctorFacts&, Checks&);   // checks_stack.cpp
// layer 4: checks_driver.cpp
void check_driver_stubs_on_path(const DoctorFacts&, Checks&);
void check_driver_library(const DoctorFacts&, Checks&);
void check_driver_version(const DoctorFacts&, Checks&);
void check_device(const DoctorFacts&, Checks&);
void check_driver_compat(const DoctorFacts&, Checks&);      // checks_stack.cpp
void check_driver_wsl(const DoctorFacts&, Checks&);         // checks_stack.cpp
// layer 5: checks_workload.cpp
void check_workload(const DoctorFacts&, Checks&);

/// Whether the probe reached a usable GPU (layer 4 passed its driver and device steps): the workload runs only then.
bool gpu_usable(const DoctorFacts& f);

} // namespace cudnnctl
