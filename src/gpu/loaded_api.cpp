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
#define CUDNNCTL_NEED_CUDNN(member, name, ...) a.member = need<name##_t>(c, #name, missing);
#define CUDNNCTL_FIND_CUDNN(member, name, ...) a.member = optional_symbol<name##_t>(c, #name);
#define CUDNNCTL_NEED_DRIVER(member, name, symbol, ...) a.member = need<name##_t>(d, symbol, missing);
  CUDNNCTL_CUDNN_REQUIRED(CUDNNCTL_NEED_CUDNN)
  CUDNNCTL_CUDNN_OPTIONAL(CUDNNCTL_FIND_CUDNN)
  if (d) {
    CUDNNCTL_DRIVER_REQUIRED(CUDNNCTL_NEED_DRIVER)
    a.elapsed = optional_symbol<cuEventElapsedTime_t>(d, "cuEventElapsedTime_v2");
    if (!a.elapsed) a.elapsed = need<cuEventElapsedTime_t>(d, "cuEventElapsedTime", missing);
  }
#undef CUDNNCTL_NEED_CUDNN
#undef CUDNNCTL_FIND_CUDNN
#undef CUDNNCTL_NEED_DRIVER
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
