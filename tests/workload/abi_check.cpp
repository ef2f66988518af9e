// Compile-time check of the hand-declared ABI (workload/abi.hpp) against the real cuDNN and CUDA
// headers, built only when /usr/local/cuda/include has them.
#include <cuda.h>
#include <cudnn.h>

#include <cstddef>
#include <type_traits>

#include "cudnnctl/workload/abi.hpp"

namespace a = cudnnctl::abi;

static_assert(sizeof(a::cudnnConvolutionFwdAlgoPerf_t) == sizeof(cudnnConvolutionFwdAlgoPerf_t));
static_assert(offsetof(a::cudnnConvolutionFwdAlgoPerf_t, memory) == offsetof(cudnnConvolutionFwdAlgoPerf_t, memory));
static_assert(offsetof(a::cudnnConvolutionFwdAlgoPerf_t, determinism) == offsetof(cudnnConvolutionFwdAlgoPerf_t, determinism));
static_assert(offsetof(a::cudnnConvolutionFwdAlgoPerf_t, mathType) == offsetof(cudnnConvolutionFwdAlgoPerf_t, mathType));
static_assert(a::CUDNN_DATA_FLOAT == static_cast<int>(CUDNN_DATA_FLOAT) && a::CUDNN_DATA_HALF == static_cast<int>(CUDNN_DATA_HALF));
static_assert(a::CUDNN_TENSOR_NCHW == static_cast<int>(CUDNN_TENSOR_NCHW) && a::CUDNN_TENSOR_NHWC == static_cast<int>(CUDNN_TENSOR_NHWC));
static_assert(a::CUDNN_CROSS_CORRELATION == static_cast<int>(CUDNN_CROSS_CORRELATION));
static_assert(a::CUDNN_TENSOR_OP_MATH == static_cast<int>(CUDNN_TENSOR_OP_MATH) && a::CUDNN_FMA_MATH == static_cast<int>(CUDNN_FMA_MATH));
static_assert(a::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR == static_cast<int>(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
static_assert(a::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR == static_cast<int>(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
static_assert(sizeof(a::CUdeviceptr) == sizeof(CUdeviceptr));
static_assert(sizeof(cudnnStatus_t) == sizeof(a::cudnnStatus_t) && sizeof(CUresult) == sizeof(a::CUresult));
// the function types the workload calls through match the real prototypes' shapes
static_assert(std::is_same_v<decltype(&cudnnGetVersion), std::size_t (*)()>);
static_assert(sizeof(decltype(&cudnnConvolutionForward)) == sizeof(a::cudnnConvolutionForward_t));

int main() { return 0; }
