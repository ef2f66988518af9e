#pragma once
// The CUDA side of one workload run: device 0, its primary context made current, the stream every
// layer runs on (uploads included), and a cuDNN handle bound to that stream. Every driver call's
// result is checked; teardown runs in reverse (the cuDNN handle before its stream, the stream before
// the context).
#include <memory>
#include <string>

#include "cudnnctl/base/expected.hpp"
#include "cudnnctl/gpu/loaded_api.hpp"

namespace cudnnctl {

class GpuSession {
public:
  /// cuInit, device 0 (name, compute capability), its primary context and a non-blocking stream.
  static Expected<std::unique_ptr<GpuSession>, std::string> open(const Api& api);
  ~GpuSession();
  GpuSession(const GpuSession&) = delete;
  GpuSession& operator=(const GpuSession&) = delete;

  /// cudnnCreate, then cudnnSetStream to this session's stream; the cuDNN status on failure.
  Expected<void, int> create_handle();

  const std::string& device_name() const { return m_name; }
  int cc_major() const { return m_cc_major; }
  int cc_minor() const { return m_cc_minor; }
  abi::CUstream stream() const { return m_stream; }
  abi::cudnnHandle_t handle() const { return m_handle; }

private:
  explicit GpuSession(const Api& api) : m_api(api) {}

  const Api& m_api;
  abi::CUdevice m_device = 0;
  bool m_context = false;
  abi::CUstream m_stream = nullptr;
  abi::cudnnHandle_t m_handle = nullptr;
  std::string m_name;
  int m_cc_major = 0, m_cc_minor = 0;
};

} // namespace cudnnctl
