#pragma once
// The cuDNN and CUDA driver functions the workload calls, looked up at run time in the libraries the
// child process loaded (cudnnctl never links either), and the GPU buffers it allocates through them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/workload/abi.hpp"

namespace cudnnctl {

struct Api {
  bool has_graph_api() const { return backend_create && backend_destroy && backend_finalize && backend_set && backend_get && backend_execute; }

  abi::cudnnCreate_t create;
  abi::cudnnDestroy_t destroy;
  abi::cudnnSetStream_t set_stream;
  abi::cudnnCreateTensorDescriptor_t create_tensor;
  abi::cudnnDestroyTensorDescriptor_t destroy_tensor;
  abi::cudnnSetTensor4dDescriptor_t set_tensor;
  abi::cudnnCreateFilterDescriptor_t create_filter;
  abi::cudnnDestroyFilterDescriptor_t destroy_filter;
  abi::cudnnSetFilter4dDescriptor_t set_filter;
  abi::cudnnCreateConvolutionDescriptor_t create_conv;
  abi::cudnnDestroyConvolutionDescriptor_t destroy_conv;
  abi::cudnnSetConvolution2dDescriptor_t set_conv;
  abi::cudnnSetConvolutionMathType_t set_math;
  abi::cudnnGetConvolution2dForwardOutputDim_t output_dim;
  abi::cudnnGetConvolutionForwardAlgorithm_v7_t get_algo;
  abi::cudnnFindConvolutionForwardAlgorithmEx_t find_algo;
  abi::cudnnConvolutionForward_t forward;
  // the unfused bias + ReLU after a convolution (legacy API)
  abi::cudnnAddTensor_t add_tensor;
  abi::cudnnCreateActivationDescriptor_t create_act;
  abi::cudnnDestroyActivationDescriptor_t destroy_act;
  abi::cudnnSetActivationDescriptor_t set_act;
  abi::cudnnActivationForward_t act_forward;
  // optional: the graph API (absent before cuDNN 8) and cuDNN 9's last error text
  abi::cudnnBackendCreateDescriptor_t backend_create;
  abi::cudnnBackendDestroyDescriptor_t backend_destroy;
  abi::cudnnBackendFinalize_t backend_finalize;
  abi::cudnnBackendSetAttribute_t backend_set;
  abi::cudnnBackendGetAttribute_t backend_get;
  abi::cudnnBackendExecute_t backend_execute;
  abi::cudnnGetLastErrorString_t last_error;
  abi::cuInit_t cu_init;
  abi::cuDeviceGet_t device_get;
  abi::cuDeviceGetName_t device_name;
  abi::cuDeviceGetAttribute_t device_attr;
  abi::cuDevicePrimaryCtxRetain_t ctx_retain;
  abi::cuDevicePrimaryCtxRelease_t ctx_release;
  abi::cuCtxSetCurrent_t ctx_set;
  abi::cuMemAlloc_t mem_alloc;
  abi::cuMemFree_t mem_free;
  abi::cuMemcpyHtoD_t htod;
  abi::cuMemcpyDtoH_t dtoh;
  abi::cuStreamCreate_t stream_create;
  abi::cuStreamSynchronize_t stream_sync;
  abi::cuStreamDestroy_t stream_destroy;
  abi::cuEventCreate_t event_create;
  abi::cuEventRecord_t event_record;
  abi::cuEventSynchronize_t event_sync;
  abi::cuEventElapsedTime_t elapsed;
  abi::cuEventDestroy_t event_destroy;
};

/// Every function of Api from the two loaded libraries; names of required ones that are missing are
/// appended to `missing` (the graph API and cudnnGetLastErrorString are optional).
Api load_api(void* cudnn, void* driver, std::vector<std::string>& missing);

/// cuDNN's own text for the last failure (cuDNN 9), or empty.
std::string last_error_text(const Api& api);

/// Median and fastest time per call of `call` (already warmed up): `calls` calls between two CUDA
/// events, `repeats` times. nullopt when a call fails; `status` then holds its status.
struct CallTiming {
  double median_ms = 0, min_ms = 0;
};
std::optional<CallTiming> time_per_call(const Api& api, abi::CUstream stream, int repeats, int calls, const std::function<int()>& call,
                                        int& status);

/// Pseudo-random values in [-1, 1) (fp16 or fp32) uploaded to `dst`: timing on zeros would flatter
/// the GPU (less switching power), and PyTorch's side of the comparison times random inputs too.
void upload_pattern(const Api& api, abi::CUdeviceptr dst, std::size_t elements, bool fp16, std::uint32_t seed);

/// GPU allocations freed when it goes out of scope.
struct Buffers {
  const Api& api;
  std::vector<abi::CUdeviceptr> ptrs;
  ~Buffers() {
    for (auto p : ptrs) api.mem_free(p);
  }
  std::optional<abi::CUdeviceptr> alloc(std::size_t bytes, int& result) {
    abi::CUdeviceptr p = 0;
    result = api.mem_alloc(&p, std::max<std::size_t>(bytes, 256));
    if (result != 0) return std::nullopt;
    ptrs.push_back(p);
    return p;
  }
};

} // namespace cudnnctl
