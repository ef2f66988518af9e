#include "cudnnctl/gpu/status_names.hpp"

#include <fmt/format.h>

#include "cudnnctl/contract/cudnn_status.hpp"

namespace cudnnctl {

std::string cudnn_status_name(int s, unsigned major) {
  // one table of names and numbers (the contract's): cuDNN 9 prefers the name of its own numbering over an
  // older name kept as an alias of the same number (4003: INTERNAL_ERROR_HOST_ALLOCATION_FAILED, not ALLOC_FAILED)
  const CudnnStatus* found = nullptr;
  for (const auto& row : cudnn_statuses()) {
    if (major >= 9 ? row.v9_code != s : row.v78_code != s) continue;
    if (!found || (major >= 9 && found->v78_code >= 0 && row.v78_code < 0)) found = &row;
  }
  if (found) return std::string(found->name);
  if (major >= 9) return fmt::format("cuDNN 9 status {} (category {})", s, s / 1000 * 1000);
  return fmt::format("cuDNN 8 status {}", s);
}

std::string cu_result_name(int r) {
  switch (r) {
  case 0: return "CUDA_SUCCESS";
  case 1: return "CUDA_ERROR_INVALID_VALUE";
  case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 34: return "CUDA_ERROR_STUB_LIBRARY";
  case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 101: return "CUDA_ERROR_INVALID_DEVICE";
  case 201: return "CUDA_ERROR_INVALID_CONTEXT";
  case 209: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case 400: return "CUDA_ERROR_INVALID_HANDLE";
  case 600: return "CUDA_ERROR_NOT_READY";
  case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
  case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
  case 999: return "CUDA_ERROR_UNKNOWN";
  default: return fmt::format("CUresult {}", r);
  }
}

} // namespace cudnnctl
