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

  // one member per function of gpu/abi.hpp's lists, of that function's type
#define CUDNNCTL_API_MEMBER(member, name, ...) abi::name##_t member;
  CUDNNCTL_CUDNN_REQUIRED(CUDNNCTL_API_MEMBER)
  CUDNNCTL_CUDNN_OPTIONAL(CUDNNCTL_API_MEMBER)
  CUDNNCTL_DRIVER_REQUIRED(CUDNNCTL_API_MEMBER)
#undef CUDNNCTL_API_MEMBER
  abi::cuEventElapsedTime_t elapsed;
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
