#include "cudnnctl/gpu/loaded_api.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/gpu/status_names.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/gpu/half.hpp"

namespace cudnnctl {

using namespace abi;

namespace {
template <class F> F need(void* lib, const char* name, std::vector<std::string>& missing) {
  auto f = reinterpret_cast<F>(platform::find_symbol(lib, name));
  if (!f) missing.push_back(name);
  return f;
}

template <class F> F optional_symbol(void* lib, const char* name) { return reinterpret_cast<F>(platform::find_symbol(lib, name)); }
} // namespace

Api load_api(void* c, void* d, std::vector<std::string>& missing) {
  Api a{};
  a.create = need<cudnnCreate_t>(c, "cudnnCreate", missing);
  a.destroy = need<cudnnDestroy_t>(c, "cudnnDestroy", missing);
  a.set_stream = need<cudnnSetStream_t>(c, "cudnnSetStream", missing);
  a.create_tensor = need<cudnnCreateTensorDescriptor_t>(c, "cudnnCreateTensorDescriptor", missing);
  a.destroy_tensor = need<cudnnDestroyTensorDescriptor_t>(c, "cudnnDestroyTensorDescriptor", missing);
  a.set_tensor = need<cudnnSetTensor4dDescriptor_t>(c, "cudnnSetTensor4dDescriptor", missing);
  a.create_filter = need<cudnnCreateFilterDescriptor_t>(c, "cudnnCreateFilterDescriptor", missing);
  a.destroy_filter = need<cudnnDestroyFilterDescriptor_t>(c, "cudnnDestroyFilterDescriptor", missing);
  a.set_filter = need<cudnnSetFilter4dDescriptor_t>(c, "cudnnSetFilter4dDescriptor", missing);
  a.create_conv = need<cudnnCreateConvolutionDescriptor_t>(c, "cudnnCreateConvolutionDescriptor", missing);
  a.destroy_conv = need<cudnnDestroyConvolutionDescriptor_t>(c, "cudnnDestroyConvolutionDescriptor", missing);
  a.set_conv = need<cudnnSetConvolution2dDescriptor_t>(c, "cudnnSetConvolution2dDescriptor", missing);
  a.set_math = need<cudnnSetConvolutionMathType_t>(c, "cudnnSetConvolutionMathType", missing);
  a.output_dim = need<cudnnGetConvolution2dForwardOutputDim_t>(c, "cudnnGetConvolution2dForwardOutputDim", missing);
  a.get_algo = need<cudnnGetConvolutionForwardAlgorithm_v7_t>(c, "cudnnGetConvolutionForwardAlgorithm_v7", missing);
  a.find_algo = optional_symbol<cudnnFindConvolutionForwardAlgorithmEx_t>(c, "cudnnFindConvolutionForwardAlgorithmEx");
  a.forward = need<cudnnConvolutionForward_t>(c, "cudnnConvolutionForward", missing);
  if (d) {
    a.cu_init = need<cuInit_t>(d, "cuInit", missing);
    a.device_get = need<cuDeviceGet_t>(d, "cuDeviceGet", missing);
    a.device_name = need<cuDeviceGetName_t>(d, "cuDeviceGetName", missing);
    a.device_attr = need<cuDeviceGetAttribute_t>(d, "cuDeviceGetAttribute", missing);
    a.ctx_retain = need<cuDevicePrimaryCtxRetain_t>(d, "cuDevicePrimaryCtxRetain", missing);
    a.ctx_release = need<cuDevicePrimaryCtxRelease_t>(d, "cuDevicePrimaryCtxRelease_v2", missing);
    a.ctx_set = need<cuCtxSetCurrent_t>(d, "cuCtxSetCurrent", missing);
    a.mem_alloc = need<cuMemAlloc_t>(d, "cuMemAlloc_v2", missing);
    a.mem_free = need<cuMemFree_t>(d, "cuMemFree_v2", missing);
    a.htod_async = need<cuMemcpyHtoDAsync_t>(d, "cuMemcpyHtoDAsync_v2", missing);
    a.dtoh = need<cuMemcpyDtoH_t>(d, "cuMemcpyDtoH_v2", missing);
    a.stream_create = need<cuStreamCreate_t>(d, "cuStreamCreate", missing);
    a.stream_sync = need<cuStreamSynchronize_t>(d, "cuStreamSynchronize", missing);
    a.stream_destroy = need<cuStreamDestroy_t>(d, "cuStreamDestroy_v2", missing);
    a.event_create = need<cuEventCreate_t>(d, "cuEventCreate", missing);
    a.event_record = need<cuEventRecord_t>(d, "cuEventRecord", missing);
    a.event_sync = need<cuEventSynchronize_t>(d, "cuEventSynchronize", missing);
    a.elapsed = optional_symbol<cuEventElapsedTime_t>(d, "cuEventElapsedTime_v2");
    if (!a.elapsed) a.elapsed = need<cuEventElapsedTime_t>(d, "cuEventElapsedTime", missing);
    a.event_destroy = need<cuEventDestroy_t>(d, "cuEventDestroy_v2", missing);
  }
  a.add_tensor = need<cudnnAddTensor_t>(c, "cudnnAddTensor", missing);
  a.create_act = need<cudnnCreateActivationDescriptor_t>(c, "cudnnCreateActivationDescriptor", missing);
  a.destroy_act = need<cudnnDestroyActivationDescriptor_t>(c, "cudnnDestroyActivationDescriptor", missing);
  a.set_act = need<cudnnSetActivationDescriptor_t>(c, "cudnnSetActivationDescriptor", missing);
  a.act_forward = need<cudnnActivationForward_t>(c, "cudnnActivationForward", missing);
  a.backend_create = optional_symbol<cudnnBackendCreateDescriptor_t>(c, "cudnnBackendCreateDescriptor");
  a.backend_destroy = optional_symbol<cudnnBackendDestroyDescriptor_t>(c, "cudnnBackendDestroyDescriptor");
  a.backend_finalize = optional_symbol<cudnnBackendFinalize_t>(c, "cudnnBackendFinalize");
  a.backend_set = optional_symbol<cudnnBackendSetAttribute_t>(c, "cudnnBackendSetAttribute");
  a.backend_get = optional_symbol<cudnnBackendGetAttribute_t>(c, "cudnnBackendGetAttribute");
  a.backend_execute = optional_symbol<cudnnBackendExecute_t>(c, "cudnnBackendExecute");
  a.last_error = optional_symbol<cudnnGetLastErrorString_t>(c, "cudnnGetLastErrorString");
  return a;
}

namespace {
// two CUDA events, destroyed with it
struct EventPair {
  const Api& api;
  CUevent start = nullptr, stop = nullptr;
  ~EventPair() {
    if (start) api.event_destroy(start);
    if (stop) api.event_destroy(stop);
  }
};

Unexpected<TimingFailure> driver_failure(const char* call, CUresult r) {
  return Unexpected<TimingFailure>(TimingFailure{-1, fmt::format("{} failed: {}", call, cu_result_name(r))});
}
} // namespace

Expected<CallTiming, TimingFailure> time_per_call(const Api& api, CUstream stream, int repeats, int calls, const std::function<int()>& call) {
  EventPair ev{api};
  if (const auto r = api.event_create(&ev.start, 0); r != 0) return driver_failure("cuEventCreate", r);
  if (const auto r = api.event_create(&ev.stop, 0); r != 0) return driver_failure("cuEventCreate", r);
  std::vector<double> per_call;
  for (int rep = 0; rep < repeats; ++rep) {
    if (const auto r = api.event_record(ev.start, stream); r != 0) return driver_failure("cuEventRecord", r);
    for (int i = 0; i < calls; ++i)
      if (const int st = call(); st != 0) return Unexpected<TimingFailure>(TimingFailure{st, ""});
    if (const auto r = api.event_record(ev.stop, stream); r != 0) return driver_failure("cuEventRecord", r);
    if (const auto r = api.event_sync(ev.stop); r != 0) return driver_failure("cuEventSynchronize", r);
    float ms = 0;
    if (const auto r = api.elapsed(&ms, ev.start, ev.stop); r != 0) return driver_failure("cuEventElapsedTime", r);
    if (!(ms > 0))
      return Unexpected<TimingFailure>(TimingFailure{-1, fmt::format("the CUDA events measured {} ms for {} calls", ms, calls)});
    per_call.push_back(static_cast<double>(ms) / calls);
  }
  if (per_call.empty()) return Unexpected<TimingFailure>(TimingFailure{-1, "nothing was timed (0 repeats)"});
  std::sort(per_call.begin(), per_call.end());
  return CallTiming{per_call[per_call.size() / 2], per_call.front()};
}

CUresult upload(const Api& api, CUstream stream, CUdeviceptr dst, const void* src, std::size_t bytes) {
  return api.htod_async(dst, src, bytes, stream);
}

CUresult upload_pattern(const Api& api, CUstream stream, CUdeviceptr dst, std::size_t elements, bool fp16, std::uint32_t seed) {
  std::uint32_t state = seed * 2654435761u + 1;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(static_cast<int>(state >> 16) - 32768) / 32768.f;
  };
  if (fp16) {
    std::vector<std::uint16_t> host(elements);
    for (auto& v : host) v = float_to_half(next());
    return upload(api, stream, dst, host.data(), host.size() * sizeof(std::uint16_t));
  }
  std::vector<float> host(elements);
  for (auto& v : host) v = next();
  return upload(api, stream, dst, host.data(), host.size() * sizeof(float));
}

std::string last_error_text(const Api& api) {
  if (!api.last_error) return {};
  char buf[1024] = {0};
  api.last_error(buf, sizeof buf);
  return buf;
}

} // namespace cudnnctl
