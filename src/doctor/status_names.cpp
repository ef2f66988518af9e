#include "cudnnctl/doctor/status_names.hpp"

#include <fmt/format.h>

namespace cudnnctl {

std::string cudnn_status_name(int s, unsigned major) {
  if (major >= 9) {
    switch (s) {
    case 0: return "CUDNN_STATUS_SUCCESS";
    case 1001: return "CUDNN_STATUS_NOT_INITIALIZED";
    case 1002: return "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH";
    case 1003: return "CUDNN_STATUS_SERIALIZATION_VERSION_MISMATCH";
    case 1004: return "CUDNN_STATUS_DEPRECATED";
    case 1005: return "CUDNN_STATUS_LICENSE_ERROR";
    case 1006: return "CUDNN_STATUS_RUNTIME_IN_PROGRESS";
    case 1007: return "CUDNN_STATUS_RUNTIME_FP_OVERFLOW";
    case 1008: return "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED";
    case 2000: return "CUDNN_STATUS_BAD_PARAM";
    case 3000: return "CUDNN_STATUS_NOT_SUPPORTED";
    case 3005: return "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER";
    case 3006: return "CUDNN_STATUS_NOT_SUPPORTED_INCOMPATIBLE_CUDART";
    case 3007: return "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH";
    case 3008: return "CUDNN_STATUS_NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING";
    case 3009: return "CUDNN_STATUS_NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE";
    case 3010: return "CUDNN_STATUS_NOT_SUPPORTED_SHARED_MEMORY_INSUFFICIENT";
    case 4000: return "CUDNN_STATUS_INTERNAL_ERROR";
    case 4003: return "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED";
    case 5000: return "CUDNN_STATUS_EXECUTION_FAILED";
    case 5001: return "CUDNN_STATUS_EXECUTION_FAILED_CUDA_DRIVER";
    case 5002: return "CUDNN_STATUS_EXECUTION_FAILED_CUBLAS";
    case 5003: return "CUDNN_STATUS_EXECUTION_FAILED_CUDART";
    default: break;
    }
    return fmt::format("cuDNN 9 status {} (category {})", s, s / 1000 * 1000);
  }
  static const char* v8[] = {"CUDNN_STATUS_SUCCESS",          "CUDNN_STATUS_NOT_INITIALIZED",   "CUDNN_STATUS_ALLOC_FAILED",
                             "CUDNN_STATUS_BAD_PARAM",        "CUDNN_STATUS_INTERNAL_ERROR",    "CUDNN_STATUS_INVALID_VALUE",
                             "CUDNN_STATUS_ARCH_MISMATCH",    "CUDNN_STATUS_MAPPING_ERROR",     "CUDNN_STATUS_EXECUTION_FAILED",
                             "CUDNN_STATUS_NOT_SUPPORTED",    "CUDNN_STATUS_LICENSE_ERROR",     "CUDNN_STATUS_RUNTIME_PREREQUISITE_MISSING",
                             "CUDNN_STATUS_RUNTIME_IN_PROGRESS", "CUDNN_STATUS_RUNTIME_FP_OVERFLOW", "CUDNN_STATUS_VERSION_MISMATCH"};
  if (s >= 0 && s <= 14) return v8[s];
  return fmt::format("cuDNN 8 status {}", s);
}

std::string cu_result_name(int r) {
  switch (r) {
  case 0: return "CUDA_SUCCESS";
  case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
  case 3: return "CUDA_ERROR_NOT_INITIALIZED";
  case 34: return "CUDA_ERROR_STUB_LIBRARY";
  case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case 100: return "CUDA_ERROR_NO_DEVICE";
  case 101: return "CUDA_ERROR_INVALID_DEVICE";
  case 209: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
  case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
  case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
  default: return fmt::format("CUresult {}", r);
  }
}

} // namespace cudnnctl
