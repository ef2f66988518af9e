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

// cuDNN
using cudnnCreate_t = cudnnStatus_t (*)(cudnnHandle_t*);
using cudnnDestroy_t = cudnnStatus_t (*)(cudnnHandle_t);
using cudnnSetStream_t = cudnnStatus_t (*)(cudnnHandle_t, CUstream);
using cudnnCreateTensorDescriptor_t = cudnnStatus_t (*)(cudnnTensorDescriptor_t*);
using cudnnDestroyTensorDescriptor_t = cudnnStatus_t (*)(cudnnTensorDescriptor_t);
using cudnnSetTensor4dDescriptor_t = cudnnStatus_t (*)(cudnnTensorDescriptor_t, int, int, int, int, int, int);
using cudnnCreateFilterDescriptor_t = cudnnStatus_t (*)(cudnnFilterDescriptor_t*);
using cudnnDestroyFilterDescriptor_t = cudnnStatus_t (*)(cudnnFilterDescriptor_t);
using cudnnSetFilter4dDescriptor_t = cudnnStatus_t (*)(cudnnFilterDescriptor_t, int, int, int, int, int, int);
using cudnnCreateConvolutionDescriptor_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t*);
using cudnnDestroyConvolutionDescriptor_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t);
using cudnnSetConvolution2dDescriptor_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t, int, int, int, int, int, int, int, int);
using cudnnSetConvolutionMathType_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t, int);
using cudnnGetConvolution2dForwardOutputDim_t = cudnnStatus_t (*)(cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t,
                                                                  cudnnFilterDescriptor_t, int*, int*, int*, int*);
using cudnnGetConvolutionForwardAlgorithm_v7_t = cudnnStatus_t (*)(cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t,
                                                                   cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t, int, int*,
                                                                   cudnnConvolutionFwdAlgoPerf_t*);
using cudnnFindConvolutionForwardAlgorithmEx_t = cudnnStatus_t (*)(cudnnHandle_t, cudnnTensorDescriptor_t, const void*,
                                                                   cudnnFilterDescriptor_t, const void*, cudnnConvolutionDescriptor_t,
                                                                   cudnnTensorDescriptor_t, void*, int, int*,
                                                                   cudnnConvolutionFwdAlgoPerf_t*, void*, std::size_t);
using cudnnConvolutionForward_t = cudnnStatus_t (*)(cudnnHandle_t, const void*, cudnnTensorDescriptor_t, const void*,
                                                    cudnnFilterDescriptor_t, const void*, cudnnConvolutionDescriptor_t, int, void*,
                                                    std::size_t, const void*, cudnnTensorDescriptor_t, void*);
using cudnnAddTensor_t = cudnnStatus_t (*)(cudnnHandle_t, const void*, cudnnTensorDescriptor_t, const void*, const void*,
                                          cudnnTensorDescriptor_t, void*);
using cudnnCreateActivationDescriptor_t = cudnnStatus_t (*)(cudnnActivationDescriptor_t*);
using cudnnDestroyActivationDescriptor_t = cudnnStatus_t (*)(cudnnActivationDescriptor_t);
using cudnnSetActivationDescriptor_t = cudnnStatus_t (*)(cudnnActivationDescriptor_t, int, int, double);
using cudnnActivationForward_t = cudnnStatus_t (*)(cudnnHandle_t, cudnnActivationDescriptor_t, const void*, cudnnTensorDescriptor_t,
                                                   const void*, const void*, cudnnTensorDescriptor_t, void*);
using cudnnGetLastErrorString_t = void (*)(char*, std::size_t);
// cuDNN graph API (backend descriptors)
using cudnnBackendCreateDescriptor_t = cudnnStatus_t (*)(int, cudnnBackendDescriptor_t*);
using cudnnBackendDestroyDescriptor_t = cudnnStatus_t (*)(cudnnBackendDescriptor_t);
using cudnnBackendFinalize_t = cudnnStatus_t (*)(cudnnBackendDescriptor_t);
using cudnnBackendSetAttribute_t = cudnnStatus_t (*)(cudnnBackendDescriptor_t, int, int, std::int64_t, const void*);
using cudnnBackendGetAttribute_t = cudnnStatus_t (*)(cudnnBackendDescriptor_t, int, int, std::int64_t, std::int64_t*, void*);
using cudnnBackendExecute_t = cudnnStatus_t (*)(cudnnHandle_t, cudnnBackendDescriptor_t, cudnnBackendDescriptor_t);
// CUDA driver
using cuInit_t = CUresult (*)(unsigned);
using cuDeviceGet_t = CUresult (*)(CUdevice*, int);
using cuDeviceGetName_t = CUresult (*)(char*, int, CUdevice);
using cuDeviceGetAttribute_t = CUresult (*)(int*, int, CUdevice);
using cuDevicePrimaryCtxRetain_t = CUresult (*)(CUcontext*, CUdevice);
using cuDevicePrimaryCtxRelease_t = CUresult (*)(CUdevice);
using cuCtxSetCurrent_t = CUresult (*)(CUcontext);
using cuMemAlloc_t = CUresult (*)(CUdeviceptr*, std::size_t);
using cuMemFree_t = CUresult (*)(CUdeviceptr);
using cuMemcpyHtoDAsync_t = CUresult (*)(CUdeviceptr, const void*, std::size_t, CUstream);
using cuMemcpyDtoH_t = CUresult (*)(void*, CUdeviceptr, std::size_t);
using cuStreamCreate_t = CUresult (*)(CUstream*, unsigned);
using cuStreamSynchronize_t = CUresult (*)(CUstream);
using cuStreamDestroy_t = CUresult (*)(CUstream);
using cuEventCreate_t = CUresult (*)(CUevent*, unsigned);
using cuEventRecord_t = CUresult (*)(CUevent, CUstream);
using cuEventSynchronize_t = CUresult (*)(CUevent);
using cuEventElapsedTime_t = CUresult (*)(float*, CUevent, CUevent);
using cuEventDestroy_t = CUresult (*)(CUevent);

} // namespace cudnnctl::abi
