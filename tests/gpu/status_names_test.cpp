#include <catch2/catch.hpp>

#include "cudnnctl/gpu/status_names.hpp"

using namespace cudnnctl;

TEST_CASE("cuDNN 9's sub-codes have their names", "[status_names]") {
  CHECK(cudnn_status_name(2002, 9) == "CUDNN_STATUS_BAD_PARAM_NULL_POINTER");
  CHECK(cudnn_status_name(2004, 9) == "CUDNN_STATUS_BAD_PARAM_NOT_FINALIZED");
  CHECK(cudnn_status_name(2010, 9) == "CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE");
  CHECK(cudnn_status_name(2012, 9) == "CUDNN_STATUS_BAD_PARAM_DESCRIPTOR_TYPE");
  CHECK(cudnn_status_name(3001, 9) == "CUDNN_STATUS_NOT_SUPPORTED_GRAPH_PATTERN");
  CHECK(cudnn_status_name(3014, 9) == "CUDNN_STATUS_NOT_SUPPORTED_INVALID_DYNAMIC_SHAPE");
  CHECK(cudnn_status_name(4001, 9) == "CUDNN_STATUS_INTERNAL_ERROR_COMPILATION_FAILED");
  CHECK(cudnn_status_name(4006, 9) == "CUDNN_STATUS_INTERNAL_ERROR_TEXTURE_CREATION_FAILED");
  CHECK(cudnn_status_name(5004, 9) == "CUDNN_STATUS_EXECUTION_FAILED_CURAND");
  // a code of a later cuDNN still reads as its category
  CHECK(cudnn_status_name(2042, 9) == "cuDNN 9 status 2042 (category 2000)");
  // cuDNN 8 numbers the same way as before
  CHECK(cudnn_status_name(3, 8) == "CUDNN_STATUS_BAD_PARAM");
  CHECK(cudnn_status_name(14, 8) == "CUDNN_STATUS_VERSION_MISMATCH");
  CHECK(cudnn_status_name(15, 8) == "cuDNN 8 status 15");
  // cuDNN 9's own name wins over an older name kept as an alias of the same number
  CHECK(cudnn_status_name(0, 9) == "CUDNN_STATUS_SUCCESS");
  CHECK(cudnn_status_name(2000, 9) == "CUDNN_STATUS_BAD_PARAM");
  CHECK(cudnn_status_name(4003, 9) == "CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED");
  CHECK(cudnn_status_name(1002, 9) == "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH");
  CHECK(cudnn_status_name(3007, 9) == "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH");
}

TEST_CASE("CUDA driver results the workload can meet have their names", "[status_names]") {
  CHECK(cu_result_name(400) == "CUDA_ERROR_INVALID_HANDLE");
  CHECK(cu_result_name(600) == "CUDA_ERROR_NOT_READY");
  CHECK(cu_result_name(700) == "CUDA_ERROR_ILLEGAL_ADDRESS");
  CHECK(cu_result_name(12345) == "CUresult 12345");
}
