#pragma once
// The doctor's checks, one table. Each row is a function over DoctorFacts (doctor/checks_<layer>.cpp)
// with its id, layer and what it needs gathered. `--layer` and `--offline` pick rows, and the rows picked
// decide what is gathered (no probe or GPU workload unless a picked row needs it).
// Adding a check: write `void check_x(const DoctorFacts&, Checks&)` in the layer's file and add its row to
// that file's rows (the function at its end); nothing else names it. docs/doctor.md's list is generated.
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


// Each layer file's rows, defined beside its checks; check_table() orders them by layer, then in this order.
const std::vector<CheckSpec>& toolkit_check_rows();   // checks_toolkit.cpp: layer 1
const std::vector<CheckSpec>& files_check_rows();     // checks_files.cpp: layer 2
const std::vector<CheckSpec>& installer_check_rows();  // checks_installer.cpp: NVIDIA's Windows cuDNN installer's copies (2)
const std::vector<CheckSpec>& release_check_rows();   // checks_release.cpp: the glibc floor, known-bad releases (2)
const std::vector<CheckSpec>& bundles_check_rows();   // checks_bundles.cpp: framework bundles (2)
const std::vector<CheckSpec>& mixed_check_rows();     // checks_mixed.cpp: sub-libraries of another release filling a gap (2)
const std::vector<CheckSpec>& gpu_code_check_rows();  // checks_gpu_code.cpp: the GPU code in the libraries (2), against each GPU (4)
const std::vector<CheckSpec>& loader_check_rows();    // checks_loader.cpp: layer 3
const std::vector<CheckSpec>& driver_check_rows();    // checks_driver.cpp: layer 4
const std::vector<CheckSpec>& driver_floor_check_rows();  // checks_driver_floor.cpp: the driver against each CUDA major's minimum (4)
const std::vector<CheckSpec>& stack_check_rows();     // checks_stack.cpp: CUDNN_PATH (2), one CUDA major (3), compat, WSL (4)
const std::vector<CheckSpec>& workload_check_rows();  // checks_workload.cpp: layer 5

/// NVIDIA's Windows installer's copy that fits the toolkit's CUDA (one on PATH first, else the newest release's);
/// null for a Linux toolkit or when none fits. checks_installer.cpp
const InstallerCopy* installer_copy_for_toolkit(const DoctorFacts& f);

/// Whether the probe reached a usable GPU (layer 4 passed its driver and device steps): the workload runs only then.
bool gpu_usable(const DoctorFacts& f);

} // namespace cudnnctl
