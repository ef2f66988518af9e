#include "cudnnctl/doctor/check_table.hpp"

#include "cudnnctl/doctor/signatures.hpp"

namespace cudnnctl {

const std::vector<CheckSpec>& check_table() {
  static const std::vector<CheckSpec> table{
      {"toolkit.found", 1, need_toolkit, &check_toolkit_found},
      {"toolkit.env", 1, need_toolkit, &check_toolkit_env},
      {"toolkit.target", 1, need_toolkit, &check_toolkit_target},
      {"files.interrupted", 2, need_toolkit, &check_files_interrupted},
      {"files.cudnn", 2, need_toolkit, &check_files_cudnn},
      {"files.stale", 2, need_toolkit, &check_files_stale},
      {"files.complete", 2, need_toolkit, &check_files_complete},
      {"files.dlls", 2, need_toolkit, &check_files_dlls},
      {"files.headers", 2, need_toolkit, &check_files_headers},
      {"files.versions", 2, need_toolkit, &check_files_versions},
      {"files.receipt", 2, need_receipt, &check_files_receipt},
      {"files.search_path", 2, need_search_path, &check_files_search_path},
      {"files.frameworks", 2, need_frameworks, &check_files_frameworks},
      {"files.cudnn_path", 2, need_search_path | need_stack, &check_files_cudnn_path},
      {"loader.skipped", 3, need_toolkit, &check_loader_skipped},
      {"loader.needed", 3, need_linkage, &check_loader_needed},
      {"loader.runtime_deps", 3, need_linkage, &check_loader_runtime_deps},
      {"loader.load", 3, need_probe, &check_loader_load},
      {"stack.cuda_major", 3, need_stack, &check_stack_cuda_major},
      {"driver.stubs_on_path", 4, need_driver_files, &check_driver_stubs_on_path},
      {"driver.library", 4, need_probe | need_driver_files, &check_driver_library},
      {"driver.version", 4, need_probe | need_driver_files, &check_driver_version},
      {"device.arch", 4, need_probe, &check_device},
      {"driver.compat", 4, need_stack, &check_driver_compat},
      {"driver.wsl", 4, need_stack, &check_driver_wsl},
      {"workload.conv", 5, need_probe | need_workload, &check_workload},
  };
  return table;
}

unsigned needs_for_layer(int only_layer, bool offline) {
  unsigned needs = 0;
  for (const auto& row : check_table())
    if (only_layer == 0 || row.layer == only_layer) needs |= row.needs;
  if (offline) needs &= ~(need_probe | need_workload);
  return needs;
}

Check make_check(std::string id, int layer, CheckStatus status, std::string finding, std::string_view signature_id) {
  Check c{std::move(id), layer, status, std::move(finding), {}, {}};
  if (!signature_id.empty()) {
    const auto& sig = signature(signature_id);
    c.cause = std::string(sig.cause);
    c.fix = std::string(sig.fix);
  }
  return c;
}

} // namespace cudnnctl
