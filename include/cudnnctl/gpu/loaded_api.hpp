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

#include "cudnnctl/base/expected.hpp"
#include "cudnnctl/gpu/abi.hpp"

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
  abi::cuMemcpyHtoDAsync_t htod_async;
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
/// appended to `missing` (the graph API and cudnnGetLastErrorString are optional). With no `driver`
/// (building graphs without a GPU) the driver's functions stay null and are not asked for.
Api load_api(void* cudnn, void* driver, std::vector<std::string>& missing);

/// cuDNN's own text for the last failure (cuDNN 9), or empty.
std::string last_error_text(const Api& api);

/// Median and fastest time per call of `call` (already warmed up): `calls` calls between two CUDA
/// events, `repeats` times.
struct CallTiming {
  double median_ms = 0, min_ms = 0;
};
/// Why a timing failed: the call's cuDNN status, or a driver call (event create/record/sync/elapsed)
/// that failed, named with its CUresult; never a time of 0 ms.
struct TimingFailure {
  int status = 0;
  std::string driver_error;
};
Expected<CallTiming, TimingFailure> time_per_call(const Api& api, abi::CUstream stream, int repeats, int calls,
                                                  const std::function<int()>& call);

/// `bytes` from the host to `dst`, ordered on `stream` (the stream the layers run on: a synchronous
/// copy goes through the legacy stream, which a non-blocking stream does not wait for).
abi::CUresult upload(const Api& api, abi::CUstream stream, abi::CUdeviceptr dst, const void* src, std::size_t bytes);

/// Pseudo-random values in [-1, 1) (fp16 or fp32) uploaded to `dst` on `stream`: timing on zeros would
/// flatter the GPU (less switching power), and PyTorch's side of the comparison times random inputs too.
abi::CUresult upload_pattern(const Api& api, abi::CUstream stream, abi::CUdeviceptr dst, std::size_t elements, bool fp16, std::uint32_t seed);

/// GPU allocations freed when it goes out of scope (not copyable: each pointer is freed once).
class Buffers {
public:
  explicit Buffers(const Api& api) : m_api(api) {}
  ~Buffers() {
    for (auto p : m_ptrs) m_api.mem_free(p);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;

  std::optional<abi::CUdeviceptr> alloc(std::size_t bytes, int& result) {
    abi::CUdeviceptr p = 0;
    result = m_api.mem_alloc(&p, std::max<std::size_t>(bytes, 256));
    if (result != 0) return std::nullopt;
    m_ptrs.push_back(p);
    return p;
  }

private:
  const Api& m_api;
  std::vector<abi::CUdeviceptr> m_ptrs;
};

} // namespace cudnnctl
