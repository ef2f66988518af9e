#include "cudnnctl/doctor/check_table.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/explain/signatures.hpp"

namespace cudnnctl {

const std::vector<CheckSpec>& check_table() {
  static const std::vector<CheckSpec> table{
      {"toolkit.found", 1, need_toolkit, &check_toolkit_found, "every CUDA toolkit found (--cuda-path, CUDA_PATH, CUDA_PATH_V*, CUDA_HOME, nvcc on PATH, the usual places) and which one is checked, and why", ""},
      {"toolkit.env", 1, need_toolkit, &check_toolkit_env, "whether CUDA_PATH or CUDA_HOME name another toolkit than the one checked", ""},
      {"toolkit.cuda_vars", 1, need_toolkit, &check_toolkit_cuda_vars, "CUDA_HOME, CUDA_PATH and CUDA_ROOT: which are set, where each points, whether they agree with each other and with the toolkit checked (cuDNN 9.24 and later reads them itself, in that order)", ""},
      {"toolkit.target", 1, need_toolkit, &check_toolkit_target, "which OS the tree is for (bin\\*.dll and lib\\x64 against lib64/*.so), against --target when given", ""},
      {"files.interrupted", 2, need_toolkit, &check_files_interrupted, "a cudnnctl transaction that did not finish: a journal left mid-apply (fail, with the command that rolls it back), clean-up or staging folders left (warn)", ""},
      {"files.cudnn", 2, need_toolkit, &check_files_cudnn, "the cuDNN libraries in the toolkit and their majors", ""},
      {"files.stale", 2, need_toolkit, &check_files_stale, "sub-libraries of another major (cuDNN 8's cudnn_ops_infer64_8.dll) and older copies of this major", ""},
      {"files.complete", 2, need_toolkit, &check_files_complete, "the complete set of sub-libraries for the release (found by pattern; the core set required)", ""},
      {"files.dlls", 2, need_toolkit, &check_files_dlls, "Windows DLLs read as PE files: damaged, 32-bit, cuDNN imports missing, zlibwapi.dll for 8.x", ""},
      {"files.headers", 2, need_toolkit, &check_files_headers, "the cuDNN headers and the version cudnn_version.h names", ""},
      {"files.versions", 2, need_toolkit, &check_files_versions, "the headers' version against the libraries' file names (Windows: each DLL's version resource), so a library of another release is named", ""},
      {"files.glibc_floor", 2, need_toolkit, &check_files_glibc_floor, "Linux: the glibc / libstdc++ floor of the cuDNN libraries (the highest GLIBC_, GLIBCXX_, CXXABI_ versions in their version-needed tables) against this host's", ""},
      {"files.advisories", 2, need_toolkit, &check_files_advisories, "the installed release against the known-bad cuDNN releases (data/cudnn-advisories.json): what goes wrong, on which GPUs or features, and the release that fixes it", ""},
      {"files.receipt", 2, need_receipt, &check_files_receipt, "with an install receipt, every installed file's size and SHA-256 (finds a DLL emptied by antivirus)", ""},
      {"files.search_path", 2, need_search_path, &check_files_search_path, "which cuDNN copy the loader picks, and every copy that shadows the toolkit's (the cudnnctl path scan)", ""},
      {"files.frameworks", 2, need_frameworks, &check_files_frameworks, "PyTorch's and pip's own cuDNN copies (venv, conda, ~/.local, the Python on PATH), which their programs load first", ""},
      {"bundles.found", 2, need_bundles, &check_bundles_found, "the framework-bundled cuDNN folders (found as `cudnnctl bundle list` finds them: --site, else $VIRTUAL_ENV, $CONDA_PREFIX and the site-packages python3 and python report), with owner, version and state, and which copy each framework loads; where it looked when there are none", ""},
      {"bundles.shadow", 2, need_bundles, &check_bundles_shadow, "a bundle of the toolkit's cuDNN major that its framework loads first, so the toolkit's copy is never used by it (fix: `cudnnctl bundle unbundle` or `bundle swap` of that folder)", ""},
      {"bundles.state", 2, need_bundles, &check_bundles_state, "each bundle's state: modified (its files edited by hand, not by cudnnctl) and reverted (the package manager put its files back after a cudnnctl swap or unbundle) warn", ""},
      {"bundles.versions", 2, need_bundles, &check_bundles_versions, "a bundle of another cuDNN major or CUDA major than the toolkit's, naming both", ""},
      {"files.cudnn_path", 2, need_search_path | need_stack, &check_files_cudnn_path, "CUDNN_PATH (read by cuda-pathfinder, cudnn-frontend, TransformerEngine builds) naming another copy than the loader takes", ""},
      {"loader.skipped", 3, need_toolkit, &check_loader_skipped, "why layer 3 cannot run here (no cuDNN library; a toolkit of another OS)", ""},
      {"loader.needed", 3, need_linkage, &check_loader_needed, "every library's DT_NEEDED (Windows: PE imports) resolved along the loader's real search order", ""},
      {"loader.runtime_deps", 3, need_linkage, &check_loader_runtime_deps, "the libraries cuDNN opens by name at run time: cuBLASLt and NVRTC of the CUDA major (unversioned libnvrtc.so for 8.x)", ""},
      {"loader.load", 3, need_probe, &check_loader_load, "the real load in a child process: every sub-library, the main library, cudnnGetVersion, cudnnGetCudartVersion and the cudnn*VersionCheck calls", "loader.version loader.version_checks"},
      {"stack.cuda_major", 3, need_stack, &check_stack_cuda_major, "one CUDA major across the stack: cudart, cuBLAS/cuBLASLt and NVRTC of the toolkit, LD_LIBRARY_PATH and pip wheels, and a cuDNN wheel's CUDA major", ""},
      {"driver.stubs_on_path", 4, need_driver_files, &check_driver_stubs_on_path, "a stubs folder holding libcuda.so on LD_LIBRARY_PATH or in the ld.so cache", ""},
      {"driver.library", 4, need_probe | need_driver_files, &check_driver_library, "the driver library (libcuda.so.1, nvcuda.dll): none, the toolkit's stub, cuInit's result", "driver.skipped"},
      {"driver.version", 4, need_probe | need_driver_files, &check_driver_version, "the driver version against NVIDIA's minimum for this cuDNN and CUDA major (from the catalog)", ""},
      {"device.arch", 4, need_probe, &check_device, "each GPU's compute capability against what this cuDNN supports; cudnnCreate with its status decoded", "device.create"},
      {"driver.compat", 4, need_stack, &check_driver_compat, "cuda-compat's libcuda.so.1 taken in front of a newer host driver", ""},
      {"driver.wsl", 4, need_stack, &check_driver_wsl, "under WSL2, a Linux driver's libcuda.so.1 ahead of /usr/lib/wsl/lib, and the copies-not-links there", ""},
      {"workload.conv", 5, need_probe | need_workload, &check_workload, "in a child process: a small fp32 convolution checked against a CPU reference, then ResNet-50 layers timed in fp16 NHWC and fp32 NCHW", "workload.correctness workload.skipped"},
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

const CheckSpec* find_check(std::string_view id) {
  for (const auto& row : check_table())
    if (row_reports(row, id)) return &row;
  return nullptr;
}

std::vector<std::string_view> reported_ids(const CheckSpec& row) {
  std::vector<std::string_view> ids{row.id};
  std::string_view rest = row.also;
  while (!rest.empty()) {
    const auto space = rest.find(' ');
    const auto word = rest.substr(0, space);
    if (!word.empty()) ids.push_back(word);
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  }
  return ids;
}

bool row_reports(const CheckSpec& row, std::string_view id) {
  const auto ids = reported_ids(row);
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

unsigned needs_for_checks(const std::vector<std::string>& ids, bool offline) {
  unsigned needs = 0;
  for (const auto& id : ids)
    if (const auto* row = find_check(id)) needs |= row->needs;
  if (offline) needs &= ~(need_probe | need_workload);
  return needs;
}

std::string_view layer_id_prefix(int layer) {
  static constexpr std::string_view prefixes[] = {"", "toolkit", "files", "loader", "driver", "workload"};
  return layer >= 1 && layer <= 5 ? prefixes[layer] : std::string_view{};
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
