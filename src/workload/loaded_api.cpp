#include "cudnnctl/workload/loaded_api.hpp"

#include <algorithm>

#include "cudnnctl/platform/dynlib.hpp"

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
  a.find_algo = reinterpret_cast<cudnnFindConvolutionForwardAlgorithmEx_t>(platform::find_symbol(c, "cudnnFindConvolutionForwardAlgorithmEx"));
  a.forward = need<cudnnConvolutionForward_t>(c, "cudnnConvolutionForward", missing);
  a.cu_init = need<cuInit_t>(d, "cuInit", missing);
  a.device_get = need<cuDeviceGet_t>(d, "cuDeviceGet", missing);
  a.device_name = need<cuDeviceGetName_t>(d, "cuDeviceGetName", missing);
  a.device_attr = need<cuDeviceGetAttribute_t>(d, "cuDeviceGetAttribute", missing);
  a.ctx_retain = need<cuDevicePrimaryCtxRetain_t>(d, "cuDevicePrimaryCtxRetain", missing);
  a.ctx_release = need<cuDevicePrimaryCtxRelease_t>(d, "cuDevicePrimaryCtxRelease_v2", missing);
  a.ctx_set = need<cuCtxSetCurrent_t>(d, "cuCtxSetCurrent", missing);
  a.mem_alloc = need<cuMemAlloc_t>(d, "cuMemAlloc_v2", missing);
  a.mem_free = need<cuMemFree_t>(d, "cuMemFree_v2", missing);
  a.memset8 = need<cuMemsetD8_t>(d, "cuMemsetD8_v2", missing);
  a.htod = need<cuMemcpyHtoD_t>(d, "cuMemcpyHtoD_v2", missing);
  a.dtoh = need<cuMemcpyDtoH_t>(d, "cuMemcpyDtoH_v2", missing);
  a.stream_create = need<cuStreamCreate_t>(d, "cuStreamCreate", missing);
  a.stream_sync = need<cuStreamSynchronize_t>(d, "cuStreamSynchronize", missing);
  a.stream_destroy = need<cuStreamDestroy_t>(d, "cuStreamDestroy_v2", missing);
  a.event_create = need<cuEventCreate_t>(d, "cuEventCreate", missing);
  a.event_record = need<cuEventRecord_t>(d, "cuEventRecord", missing);
  a.event_sync = need<cuEventSynchronize_t>(d, "cuEventSynchronize", missing);
  a.elapsed = reinterpret_cast<cuEventElapsedTime_t>(platform::find_symbol(d, "cuEventElapsedTime_v2"));
  if (!a.elapsed) a.elapsed = need<cuEventElapsedTime_t>(d, "cuEventElapsedTime", missing);
  a.event_destroy = need<cuEventDestroy_t>(d, "cuEventDestroy_v2", missing);
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

std::string last_error_text(const Api& api) {
  if (!api.last_error) return {};
  char buf[1024] = {0};
  api.last_error(buf, sizeof buf);
  return buf;
}

} // namespace cudnnctl
