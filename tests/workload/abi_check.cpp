// Compile-time check of the hand-declared ABI (gpu/abi.hpp) against the real cuDNN and CUDA
// headers (cudnn.h pulls in cudnn_graph.h, cudnn_ops.h and cudnn_cnn.h), built only when
// /usr/local/cuda/include has them. Enums are compared value by value; functions by arity and the
// size of every parameter and of the result (ours take int where cuDNN takes an enum: same size).
#include <cuda.h>
#include <cudnn.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cudnnctl/gpu/abi.hpp"

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


namespace {
template <class R, class... A> struct Shape {
  std::size_t result;
  std::array<std::size_t, sizeof...(A)> params;
};
template <class R, class... A> constexpr auto shape(R (*)(A...)) {
  if constexpr (std::is_void_v<R>) return Shape<R, A...>{0, {sizeof(A)...}};
  else return Shape<R, A...>{sizeof(R), {sizeof(A)...}};
}
template <class R1, class... A1, class R2, class... A2> constexpr bool operator==(Shape<R1, A1...> x, Shape<R2, A2...> y) {
  if constexpr (sizeof...(A1) != sizeof...(A2)) return false;
  else return x.result == y.result && x.params == y.params;
}
} // namespace

// graph API enums, value by value
static_assert(a::CUDNN_BACKEND_POINTWISE_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_POINTWISE_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_ENGINECFG_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR));
static_assert(a::CUDNN_BACKEND_TENSOR_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_TENSOR_DESCRIPTOR));
static_assert(a::CUDNN_TYPE_HANDLE == static_cast<int>(CUDNN_TYPE_HANDLE));
static_assert(a::CUDNN_TYPE_DATA_TYPE == static_cast<int>(CUDNN_TYPE_DATA_TYPE));
static_assert(a::CUDNN_TYPE_BOOLEAN == static_cast<int>(CUDNN_TYPE_BOOLEAN));
static_assert(a::CUDNN_TYPE_INT64 == static_cast<int>(CUDNN_TYPE_INT64));
static_assert(a::CUDNN_TYPE_FLOAT == static_cast<int>(CUDNN_TYPE_FLOAT));
static_assert(a::CUDNN_TYPE_VOID_PTR == static_cast<int>(CUDNN_TYPE_VOID_PTR));
static_assert(a::CUDNN_TYPE_CONVOLUTION_MODE == static_cast<int>(CUDNN_TYPE_CONVOLUTION_MODE));
static_assert(a::CUDNN_TYPE_HEUR_MODE == static_cast<int>(CUDNN_TYPE_HEUR_MODE));
static_assert(a::CUDNN_TYPE_POINTWISE_MODE == static_cast<int>(CUDNN_TYPE_POINTWISE_MODE));
static_assert(a::CUDNN_TYPE_BACKEND_DESCRIPTOR == static_cast<int>(CUDNN_TYPE_BACKEND_DESCRIPTOR));
static_assert(a::CUDNN_ATTR_POINTWISE_MODE == static_cast<int>(CUDNN_ATTR_POINTWISE_MODE));
static_assert(a::CUDNN_ATTR_POINTWISE_MATH_PREC == static_cast<int>(CUDNN_ATTR_POINTWISE_MATH_PREC));
static_assert(a::CUDNN_ATTR_CONVOLUTION_COMP_TYPE == static_cast<int>(CUDNN_ATTR_CONVOLUTION_COMP_TYPE));
static_assert(a::CUDNN_ATTR_CONVOLUTION_CONV_MODE == static_cast<int>(CUDNN_ATTR_CONVOLUTION_CONV_MODE));
static_assert(a::CUDNN_ATTR_CONVOLUTION_DILATIONS == static_cast<int>(CUDNN_ATTR_CONVOLUTION_DILATIONS));
static_assert(a::CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES == static_cast<int>(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES));
static_assert(a::CUDNN_ATTR_CONVOLUTION_POST_PADDINGS == static_cast<int>(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS));
static_assert(a::CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS == static_cast<int>(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS));
static_assert(a::CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS == static_cast<int>(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS));
static_assert(a::CUDNN_ATTR_ENGINEHEUR_MODE == static_cast<int>(CUDNN_ATTR_ENGINEHEUR_MODE));
static_assert(a::CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH == static_cast<int>(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH));
static_assert(a::CUDNN_ATTR_ENGINEHEUR_RESULTS == static_cast<int>(CUDNN_ATTR_ENGINEHEUR_RESULTS));
static_assert(a::CUDNN_ATTR_EXECUTION_PLAN_HANDLE == static_cast<int>(CUDNN_ATTR_EXECUTION_PLAN_HANDLE));
static_assert(a::CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG == static_cast<int>(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG));
static_assert(a::CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE == static_cast<int>(CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE));
static_assert(a::CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA == static_cast<int>(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA));
static_assert(a::CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA == static_cast<int>(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA));
static_assert(a::CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC == static_cast<int>(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC));
static_assert(a::CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W == static_cast<int>(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W));
static_assert(a::CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X == static_cast<int>(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X));
static_assert(a::CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y == static_cast<int>(CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y));
static_assert(a::CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR == static_cast<int>(CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR));
static_assert(a::CUDNN_ATTR_OPERATION_POINTWISE_XDESC == static_cast<int>(CUDNN_ATTR_OPERATION_POINTWISE_XDESC));
static_assert(a::CUDNN_ATTR_OPERATION_POINTWISE_BDESC == static_cast<int>(CUDNN_ATTR_OPERATION_POINTWISE_BDESC));
static_assert(a::CUDNN_ATTR_OPERATION_POINTWISE_YDESC == static_cast<int>(CUDNN_ATTR_OPERATION_POINTWISE_YDESC));
static_assert(a::CUDNN_ATTR_OPERATIONGRAPH_HANDLE == static_cast<int>(CUDNN_ATTR_OPERATIONGRAPH_HANDLE));
static_assert(a::CUDNN_ATTR_OPERATIONGRAPH_OPS == static_cast<int>(CUDNN_ATTR_OPERATIONGRAPH_OPS));
static_assert(a::CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT == static_cast<int>(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT));
static_assert(a::CUDNN_ATTR_TENSOR_DATA_TYPE == static_cast<int>(CUDNN_ATTR_TENSOR_DATA_TYPE));
static_assert(a::CUDNN_ATTR_TENSOR_DIMENSIONS == static_cast<int>(CUDNN_ATTR_TENSOR_DIMENSIONS));
static_assert(a::CUDNN_ATTR_TENSOR_STRIDES == static_cast<int>(CUDNN_ATTR_TENSOR_STRIDES));
static_assert(a::CUDNN_ATTR_TENSOR_UNIQUE_ID == static_cast<int>(CUDNN_ATTR_TENSOR_UNIQUE_ID));
static_assert(a::CUDNN_ATTR_TENSOR_IS_VIRTUAL == static_cast<int>(CUDNN_ATTR_TENSOR_IS_VIRTUAL));
static_assert(a::CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS == static_cast<int>(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS));
static_assert(a::CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS == static_cast<int>(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS));
static_assert(a::CUDNN_ATTR_VARIANT_PACK_WORKSPACE == static_cast<int>(CUDNN_ATTR_VARIANT_PACK_WORKSPACE));
static_assert(a::CUDNN_POINTWISE_ADD == static_cast<int>(CUDNN_POINTWISE_ADD));
static_assert(a::CUDNN_POINTWISE_RELU_FWD == static_cast<int>(CUDNN_POINTWISE_RELU_FWD));
static_assert(a::CUDNN_HEUR_MODE_INSTANT == static_cast<int>(CUDNN_HEUR_MODE_INSTANT));
static_assert(a::CUDNN_HEUR_MODE_FALLBACK == static_cast<int>(CUDNN_HEUR_MODE_FALLBACK));
static_assert(a::CUDNN_HEUR_MODE_A == static_cast<int>(CUDNN_HEUR_MODE_A));
static_assert(a::CUDNN_ACTIVATION_RELU == static_cast<int>(CUDNN_ACTIVATION_RELU));
static_assert(a::CUDNN_NOT_PROPAGATE_NAN == static_cast<int>(CUDNN_NOT_PROPAGATE_NAN));
// functions: arity and sizes
static_assert(a::CUDNN_BACKEND_DEVICEPROP_DESCRIPTOR == static_cast<int>(CUDNN_BACKEND_DEVICEPROP_DESCRIPTOR));
static_assert(a::CUDNN_TYPE_INT32 == static_cast<int>(CUDNN_TYPE_INT32) && a::CUDNN_TYPE_CHAR == static_cast<int>(CUDNN_TYPE_CHAR));
static_assert(a::CUDNN_ATTR_ENGINEHEUR_DEVICEPROP == static_cast<int>(CUDNN_ATTR_ENGINEHEUR_DEVICEPROP));
static_assert(a::CUDNN_ATTR_EXECUTION_PLAN_DEVICEPROP == static_cast<int>(CUDNN_ATTR_EXECUTION_PLAN_DEVICEPROP));
static_assert(a::CUDNN_ATTR_DEVICEPROP_JSON_REPRESENTATION == static_cast<int>(CUDNN_ATTR_DEVICEPROP_JSON_REPRESENTATION));
static_assert(a::CU_STREAM_NON_BLOCKING == static_cast<unsigned>(CU_STREAM_NON_BLOCKING));
// every function of abi.hpp's lists: arity and the size of each parameter and of the result. A driver
// function's name is mapped by cuda.h to the versioned symbol the workload looks up (cuMemAlloc_v2).
#define CUDNNCTL_SAME_SHAPE(member, name, ...) static_assert(shape(&name) == shape(a::name##_t{}), #name);
CUDNNCTL_CUDNN_REQUIRED(CUDNNCTL_SAME_SHAPE)
CUDNNCTL_CUDNN_OPTIONAL(CUDNNCTL_SAME_SHAPE)
CUDNNCTL_DRIVER_REQUIRED(CUDNNCTL_SAME_SHAPE)
static_assert(shape(&cuEventElapsedTime) == shape(a::cuEventElapsedTime_t{}), "cuEventElapsedTime");
static_assert(sizeof(cudnnBackendDescriptor_t) == sizeof(a::cudnnBackendDescriptor_t));
static_assert(sizeof(bool) == 1);  // CUDNN_TYPE_BOOLEAN values are C++ bool

int main() { return 0; }
