#pragma once
// The slice of the cuDNN (8.x and 9.x legacy API) and CUDA driver ABI the workload uses, declared by
// hand: cudnnctl has no link dependency on CUDA and loads both at run time. tests/workload/abi_check.cpp
// compares these with the real headers when /usr/local/cuda/include has them.
#include <cstddef>

namespace cudnnctl::abi {

using cudnnStatus_t = int;
using cudnnHandle_t = struct cudnnContext*;
using cudnnTensorDescriptor_t = struct cudnnTensorStruct*;
using cudnnFilterDescriptor_t = struct cudnnFilterStruct*;
using cudnnConvolutionDescriptor_t = struct cudnnConvolutionStruct*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUcontext = struct CUctx_st*;
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
enum : int { CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
             CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76 };

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
using cuMemsetD8_t = CUresult (*)(CUdeviceptr, unsigned char, std::size_t);
using cuMemcpyHtoD_t = CUresult (*)(CUdeviceptr, const void*, std::size_t);
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
