// The whole-stack checks (issue 20): one row each in the check table, over StackFacts gathered once
// (gather_stack.cpp), judged by the pure rules of env/cuda_stack.hpp.
#include <algorithm>

#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

namespace {
Check to_check(const StackFinding& f, const std::string& id, int layer) {
  const auto status = f.verdict == StackVerdict::pass ? CheckStatus::pass : f.verdict == StackVerdict::warn ? CheckStatus::warn : CheckStatus::fail;
  return make_check(id, layer, status, f.finding, f.signature);
}
void check_files_cudnn_path(const DoctorFacts& f, Checks& out) {
  if (!f.stack.gathered) return;
  const auto& same = f.stack.same_as_loader_dir;
  out.push_back(to_check(check_cudnn_path(f.stack.cudnn_path, f.stack.loader_cudnn_dir,
                                          [&](const std::string& dir, const std::string&) { return std::find(same.begin(), same.end(), dir) != same.end(); }),
                         "files.cudnn_path", 2));
}

void check_stack_cuda_major(const DoctorFacts& f, Checks& out) {
  if (f.stack.gathered) out.push_back(to_check(check_one_cuda_major(f.stack.libraries), "stack.cuda_major", 3));
}

void check_driver_compat(const DoctorFacts& f, Checks& out) {
  if (f.stack.gathered) out.push_back(to_check(check_cuda_compat(f.stack.libcuda, f.stack.host_driver), "driver.compat", 4));
}

void check_driver_wsl(const DoctorFacts& f, Checks& out) {
  if (!f.stack.gathered) return;
  for (const auto& finding : check_wsl(f.stack.wsl)) out.push_back(to_check(finding, "driver.wsl", 4));
}

} // namespace

const std::vector<CheckSpec>& stack_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"files.cudnn_path", 2, need_search_path | need_stack, &check_files_cudnn_path, "CUDNN_PATH (read by cuda-pathfinder, cudnn-frontend, TransformerEngine builds) naming another copy than the loader takes", ""},
      {"stack.cuda_major", 3, need_stack, &check_stack_cuda_major, "one CUDA major across the stack: cudart, cuBLAS/cuBLASLt and NVRTC of the toolkit, LD_LIBRARY_PATH and pip wheels, and a cuDNN wheel's CUDA major", ""},
      {"driver.compat", 4, need_stack, &check_driver_compat, "cuda-compat's libcuda.so.1 taken in front of a newer host driver", ""},
      {"driver.wsl", 4, need_stack, &check_driver_wsl, "under WSL2, a Linux driver's libcuda.so.1 ahead of /usr/lib/wsl/lib, and the copies-not-links there", ""},
  };
  return rows;
}

} // namespace cudnnctl
