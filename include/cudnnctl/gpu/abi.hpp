#pragma once
// The slice of the cuDNN (8.x and 9.x legacy API, and the graph API's backend descriptors) and CUDA
// driver ABI the workload uses, declared by hand: cudnnctl has no link dependency on CUDA and loads
// both at run time. tests/workload/abi_check.cpp
// compares these with the real headers when /usr/local/cuda/include has them.
#include <cstddef>
#include <cstdint>

namespace cudnnctl::abi {

using cudnnStatus_t = int;
using cudnnHandle_t = struct cudnnContext*;
using cudnnTensorDescriptor_t = struct cudnnTensorStruct*;
using cudnnFilterDescriptor_t = struct cudnnFilterStruct*;
using cudnnConvolutionDescriptor_t = struct cudnnConvolutionStruct*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUcontext = struct CUctx_st*;
using cudnnActivationDescriptor_t = struct cudnnActivationStruct*;
using cudnnBackendDescriptor_t = void*;
using CUdeviceptr = unsigned long long;
using CUresult = int;
using CUdevice = int;

struct cudnnConvolutionFwdAlgoPerf_t {
  int algo;
  int status;
  float time;
  std::size_t memory;
  int determinism;
  int mathType;
  int reserved[3];
};

enum : int { CUDNN_DATA_FLOAT = 0, CUDNN_DATA_HALF = 2 };
enum : int { CUDNN_TENSOR_NCHW = 0, CUDNN_TENSOR_NHWC = 1 };
enum : int { CUDNN_CROSS_CORRELATION = 1 };
enum : int { CUDNN_DEFAULT_MATH = 0, CUDNN_TENSOR_OP_MATH = 1, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION = 2, CUDNN_FMA_MATH = 3 };
enum : unsigned { CU_STREAM_NON_BLOCKING = 1 };
enum : int { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
             CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76 };

enum : int { CUDNN_ACTIVATION_RELU = 1 };
enum : int { CUDNN_NOT_PROPAGATE_NAN = 0 };

// graph API (cudnn_graph.h): descriptor types, attribute names and types, modes
enum : int {
  CUDNN_BACKEND_POINTWISE_DESCRIPTOR = 0,
  CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR = 1,
  CUDNN_BACKEND_ENGINECFG_DESCRIPTOR = 3,
  CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR = 4,
  CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR = 5,
  CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR = 10,
  CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR = 13,
  CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR = 15,
  CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR = 16,
  CUDNN_BACKEND_TENSOR_DESCRIPTOR = 17,
  CUDNN_BACKEND_DEVICEPROP_DESCRIPTOR = 38,  // cuDNN 9.8+: a GPU described without the GPU
};
enum : int {
  CUDNN_TYPE_HANDLE = 0,
  CUDNN_TYPE_DATA_TYPE = 1,
  CUDNN_TYPE_BOOLEAN = 2,
  CUDNN_TYPE_INT64 = 3,
  CUDNN_TYPE_FLOAT = 4,
  CUDNN_TYPE_VOID_PTR = 6,
  CUDNN_TYPE_CONVOLUTION_MODE = 7,
  CUDNN_TYPE_HEUR_MODE = 8,
  CUDNN_TYPE_POINTWISE_MODE = 14,
  CUDNN_TYPE_BACKEND_DESCRIPTOR = 15,
  CUDNN_TYPE_INT32 = 23,
  CUDNN_TYPE_CHAR = 24,
};
enum : int {
  CUDNN_ATTR_POINTWISE_MODE = 0,
  CUDNN_ATTR_POINTWISE_MATH_PREC = 1,
  CUDNN_ATTR_CONVOLUTION_COMP_TYPE = 100,
  CUDNN_ATTR_CONVOLUTION_CONV_MODE = 101,
  CUDNN_ATTR_CONVOLUTION_DILATIONS = 102,
  CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES = 103,
  CUDNN_ATTR_CONVOLUTION_POST_PADDINGS = 104,
  CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS = 105,
  CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS = 106,
  CUDNN_ATTR_ENGINEHEUR_MODE = 200,
  CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH = 201,
  CUDNN_ATTR_ENGINEHEUR_RESULTS = 202,
  CUDNN_ATTR_ENGINEHEUR_DEVICEPROP = 204,
  CUDNN_ATTR_EXECUTION_PLAN_HANDLE = 400,
  CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG = 401,
  CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE = 402,
  CUDNN_ATTR_EXECUTION_PLAN_DEVICEPROP = 407,
  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA = 700,
  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA = 701,
  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC = 702,
  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W = 703,
  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X = 704,
  CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y = 705,
  CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR = 750,
  CUDNN_ATTR_OPERATION_POINTWISE_XDESC = 751,
  CUDNN_ATTR_OPERATION_POINTWISE_BDESC = 752,
  CUDNN_ATTR_OPERATION_POINTWISE_YDESC = 753,
  CUDNN_ATTR_OPERATIONGRAPH_HANDLE = 800,
  CUDNN_ATTR_OPERATIONGRAPH_OPS = 801,
  CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT = 900,
  CUDNN_ATTR_TENSOR_DATA_TYPE = 901,
  CUDNN_ATTR_TENSOR_DIMENSIONS = 902,
  CUDNN_ATTR_TENSOR_STRIDES = 903,
  CUDNN_ATTR_TENSOR_UNIQUE_ID = 906,
  CUDNN_ATTR_TENSOR_IS_VIRTUAL = 907,
  CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS = 1000,
  CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS = 1001,
  CUDNN_ATTR_VARIANT_PACK_WORKSPACE = 1003,
  CUDNN_ATTR_DEVICEPROP_JSON_REPRESENTATION = 2702,
};
enum : int { CUDNN_POINTWISE_ADD = 0, CUDNN_POINTWISE_RELU_FWD = 100 };
enum : int { CUDNN_HEUR_MODE_INSTANT = 0, CUDNN_HEUR_MODE_FALLBACK = 2, CUDNN_HEUR_MODE_A = 3 };

const char* algo_name(int algo);
const char* math_name(int math);

// The functions the workload calls, each named once, here. Api (loaded_api.hpp) has a member of type
// <name>_t for each, load_api looks each up, and tests/workload/abi_check.cpp holds each against the
// real cudnn.h and cuda.h.
//
// cuDNN's, looked up by their names; a missing one is named (legacy API of 8.x and 9.x):
//   X(member of Api, name, result, (parameters))
#define CUDNNCTL_CUDNN_REQUIRED(X)                                                                                                   \
  X(create, cudnnCreate, cudnnStatus_t, (cudnnHandle_t*))                                                                          \
  X(destroy, cudnnDestroy, cudnnStatus_t, (cudnnHandle_t))                                                                         \
  X(set_stream, cudnnSetStream, cudnnStatus_t, (cudnnHandle_t, CUstream))                                                          \
  X(create_tensor, cudnnCreateTensorDescriptor, cudnnStatus_t, (cudnnTensorDescriptor_t*))                                         \
  X(destroy_tensor, cudnnDestroyTensorDescriptor, cudnnStatus_t, (cudnnTensorDescriptor_t))                                        \
  X(set_tensor, cudnnSetTensor4dDescriptor, cudnnStatus_t, (cudnnTensorDescriptor_t, int, int, int, int, int, int))                 \
  X(create_filter, cudnnCreateFilterDescriptor, cudnnStatus_t, (cudnnFilterDescriptor_t*))                                         \
  X(destroy_filter, cudnnDestroyFilterDescriptor, cudnnStatus_t, (cudnnFilterDescriptor_t))                                        \
  X(set_filter, cudnnSetFilter4dDescriptor, cudnnStatus_t, (cudnnFilterDescriptor_t, int, int, int, int, int, int))                 \
  X(create_conv, cudnnCreateConvolutionDescriptor, cudnnStatus_t, (cudnnConvolutionDescriptor_t*))                                 \
  X(destroy_conv, cudnnDestroyConvolutionDescriptor, cudnnStatus_t, (cudnnConvolutionDescriptor_t))                                \
  X(set_conv, cudnnSetConvolution2dDescriptor, cudnnStatus_t, (cudnnConvolutionDescriptor_t, int, int, int, int, int, int, int, int)) \
  X(set_math, cudnnSetConvolutionMathType, cudnnStatus_t, (cudnnConvolutionDescriptor_t, int))                                     \
  X(output_dim, cudnnGetConvolution2dForwardOutputDim, cudnnStatus_t,                                                               \
    (cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t, int*, int*, int*, int*))                       \
  X(get_algo, cudnnGetConvolutionForwardAlgorithm_v7, cudnnStatus_t,                                                                \
    (cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t, cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t, int,   \
     int*, cudnnConvolutionFwdAlgoPerf_t*))                                                                                         \
  X(forward, cudnnConvolutionForward, cudnnStatus_t,                                                                                \
    (cudnnHandle_t, const void*, cudnnTensorDescriptor_t, const void*, cudnnFilterDescriptor_t, const void*,                        \
     cudnnConvolutionDescriptor_t, int, void*, std::size_t, const void*, cudnnTensorDescriptor_t, void*))                           \
  /* the unfused bias + ReLU after a convolution */                                                                                 \
  X(add_tensor, cudnnAddTensor, cudnnStatus_t,                                                                                      \
    (cudnnHandle_t, const void*, cudnnTensorDescriptor_t, const void*, const void*, cudnnTensorDescriptor_t, void*))                \
  X(create_act, cudnnCreateActivationDescriptor, cudnnStatus_t, (cudnnActivationDescriptor_t*))                                     \
  X(destroy_act, cudnnDestroyActivationDescriptor, cudnnStatus_t, (cudnnActivationDescriptor_t))                                    \
  X(set_act, cudnnSetActivationDescriptor, cudnnStatus_t, (cudnnActivationDescriptor_t, int, int, double))                          \
  X(act_forward, cudnnActivationForward, cudnnStatus_t,                                                                             \
    (cudnnHandle_t, cudnnActivationDescriptor_t, const void*, cudnnTensorDescriptor_t, const void*, const void*,                    \
     cudnnTensorDescriptor_t, void*))

// cuDNN's, null when absent: FindEx, the graph API (cuDNN 8.0 and later) and cuDNN 9's last error text.
#define CUDNNCTL_CUDNN_OPTIONAL(X)                                                                                                   \
  X(find_algo, cudnnFindConvolutionForwardAlgorithmEx, cudnnStatus_t,                                                               \
    (cudnnHandle_t, cudnnTensorDescriptor_t, const void*, cudnnFilterDescriptor_t, const void*, cudnnConvolutionDescriptor_t,       \
     cudnnTensorDescriptor_t, void*, int, int*, cudnnConvolutionFwdAlgoPerf_t*, void*, std::size_t))                                \
  X(backend_create, cudnnBackendCreateDescriptor, cudnnStatus_t, (int, cudnnBackendDescriptor_t*))                                  \
  X(backend_destroy, cudnnBackendDestroyDescriptor, cudnnStatus_t, (cudnnBackendDescriptor_t))                                      \
  X(backend_finalize, cudnnBackendFinalize, cudnnStatus_t, (cudnnBackendDescriptor_t))                                              \
  X(backend_set, cudnnBackendSetAttribute, cudnnStatus_t, (cudnnBackendDescriptor_t, int, int, std::int64_t, const void*))          \
  X(backend_get, cudnnBackendGetAttribute, cudnnStatus_t, (cudnnBackendDescriptor_t, int, int, std::int64_t, std::int64_t*, void*)) \
  X(backend_execute, cudnnBackendExecute, cudnnStatus_t, (cudnnHandle_t, cudnnBackendDescriptor_t, cudnnBackendDescriptor_t))       \
  X(last_error, cudnnGetLastErrorString, void, (char*, std::size_t))

// The CUDA driver's, looked up by the symbol cuda.h maps the name to (the _v2 ABI where there is one); a
// missing one is named. cuEventElapsedTime is below: its symbol depends on the driver.
//   X(member of Api, name, symbol, result, (parameters))
#define CUDNNCTL_DRIVER_REQUIRED(X)                                                                                                  \
  X(cu_init, cuInit, "cuInit", CUresult, (unsigned))                                                                                \
  X(device_get, cuDeviceGet, "cuDeviceGet", CUresult, (CUdevice*, int))                                                             \
  X(device_name, cuDeviceGetName, "cuDeviceGetName", CUresult, (char*, int, CUdevice))                                              \
  X(device_attr, cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult, (int*, int, CUdevice))                                     \
  X(ctx_retain, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult, (CUcontext*, CUdevice))                             \
  X(ctx_release, cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", CUresult, (CUdevice))                                   \
  X(ctx_set, cuCtxSetCurrent, "cuCtxSetCurrent", CUresult, (CUcontext))                                                             \
  X(mem_alloc, cuMemAlloc, "cuMemAlloc_v2", CUresult, (CUdeviceptr*, std::size_t))                                                  \
  X(mem_free, cuMemFree, "cuMemFree_v2", CUresult, (CUdeviceptr))                                                                   \
  X(htod_async, cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", CUresult, (CUdeviceptr, const void*, std::size_t, CUstream))             \
  X(dtoh, cuMemcpyDtoH, "cuMemcpyDtoH_v2", CUresult, (void*, CUdeviceptr, std::size_t))                                             \
  X(stream_create, cuStreamCreate, "cuStreamCreate", CUresult, (CUstream*, unsigned))                                               \
  X(stream_sync, cuStreamSynchronize, "cuStreamSynchronize", CUresult, (CUstream))                                                  \
  X(stream_destroy, cuStreamDestroy, "cuStreamDestroy_v2", CUresult, (CUstream))                                                    \
  X(event_create, cuEventCreate, "cuEventCreate", CUresult, (CUevent*, unsigned))                                                   \
  X(event_record, cuEventRecord, "cuEventRecord", CUresult, (CUevent, CUstream))                                                    \
  X(event_sync, cuEventSynchronize, "cuEventSynchronize", CUresult, (CUevent))                                                      \
  X(event_destroy, cuEventDestroy, "cuEventDestroy_v2", CUresult, (CUevent))

#define CUDNNCTL_FUNCTION_TYPE(member, name, result, params) using name##_t = result(*) params;
#define CUDNNCTL_DRIVER_FUNCTION_TYPE(member, name, symbol, result, params) using name##_t = result(*) params;
CUDNNCTL_CUDNN_REQUIRED(CUDNNCTL_FUNCTION_TYPE)
CUDNNCTL_CUDNN_OPTIONAL(CUDNNCTL_FUNCTION_TYPE)
CUDNNCTL_DRIVER_REQUIRED(CUDNNCTL_DRIVER_FUNCTION_TYPE)
#undef CUDNNCTL_FUNCTION_TYPE
#undef CUDNNCTL_DRIVER_FUNCTION_TYPE
// cuEventElapsedTime_v2 where the driver has it (CUDA 12.8 and later; 13 has only it), else cuEventElapsedTime
using cuEventElapsedTime_t = CUresult (*)(float*, CUevent, CUevent);

} // namespace cudnnctl::abi
