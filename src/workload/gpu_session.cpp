#include "cudnnctl/workload/gpu_session.hpp"

#include <fmt/format.h>

#include "cudnnctl/gpu/status_names.hpp"

namespace cudnnctl {

using namespace abi;

namespace {
Unexpected<std::string> failed(const char* call, CUresult r) { return Unexpected<std::string>(fmt::format("{} failed: {}", call, cu_result_name(r))); }
} // namespace

Expected<std::unique_ptr<GpuSession>, std::string> GpuSession::open(const Api& api) {
  std::unique_ptr<GpuSession> s(new GpuSession(api));
  if (const auto r = api.cu_init(0); r != 0) return failed("cuInit", r);
  if (const auto r = api.device_get(&s->m_device, 0); r != 0) return failed("cuDeviceGet", r);
  char name[256] = {0};
  if (const auto r = api.device_name(name, sizeof name, s->m_device); r != 0) return failed("cuDeviceGetName", r);
  s->m_name = name;
  if (const auto r = api.device_attr(&s->m_cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, s->m_device); r != 0)
    return failed("cuDeviceGetAttribute", r);
  if (const auto r = api.device_attr(&s->m_cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, s->m_device); r != 0)
    return failed("cuDeviceGetAttribute", r);
  CUcontext ctx = nullptr;
  if (const auto r = api.ctx_retain(&ctx, s->m_device); r != 0) return failed("cuDevicePrimaryCtxRetain", r);
  s->m_context = true;
  if (const auto r = api.ctx_set(ctx); r != 0) return failed("cuCtxSetCurrent", r);
  if (const auto r = api.stream_create(&s->m_stream, CU_STREAM_NON_BLOCKING); r != 0) {
    s->m_stream = nullptr;
    return failed("cuStreamCreate", r);
  }
  return s;
}

Expected<void, int> GpuSession::create_handle() {
  if (const int st = m_api.create(&m_handle); st != 0) {
    m_handle = nullptr;
    return Unexpected<int>(st);
  }
  if (const int st = m_api.set_stream(m_handle, m_stream); st != 0) return Unexpected<int>(st);
  return {};
}

GpuSession::~GpuSession() {
  // the handle is bound to the stream: it goes first
  if (m_handle) m_api.destroy(m_handle);
  if (m_stream) m_api.stream_destroy(m_stream);
  if (m_context) m_api.ctx_release(m_device);
}

} // namespace cudnnctl
