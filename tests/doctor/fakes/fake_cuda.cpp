// A stand-in for the driver's libcuda.so.1 with scripted results (cuInit status, device, compute capability).
// FAKE_CU_FAIL=<function>=<CUresult> makes that driver function fail (e.g. cuEventElapsedTime=400).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "fake_env.hpp"

namespace {
int scripted_failure(const char* function) {
  const char* v = std::getenv("FAKE_CU_FAIL");
  if (!v) return 0;
  const std::string spec = v, name = function;
  if (spec.compare(0, name.size() + 1, name + "=") != 0) return 0;
  return static_cast<int>(std::strtol(spec.c_str() + name.size() + 1, nullptr, 10));
}
#define FAIL_IF_SCRIPTED(fn) \
  if (const int scripted = scripted_failure(fn)) return scripted

// A stream: fake cuDNN checks, when its handle is destroyed, that the stream it was bound to still is.
struct Stream {
  std::uint32_t magic;
};
constexpr std::uint32_t k_live_stream = 0x5354524d, k_dead_stream = 0xdeadbeef;

// Synchronous copies from pageable memory go through the legacy stream: the source is staged at once,
// but the DMA lands only when the legacy stream is synchronized, and a non-blocking stream does not
// wait for it. Modelled: the copy is applied at the next legacy-stream synchronization.
struct PendingCopy {
  unsigned long long dst;
  std::vector<unsigned char> staged;
};
std::vector<PendingCopy> g_legacy_copies;
void flush_legacy_stream() {
  for (const auto& c : g_legacy_copies) std::memcpy(reinterpret_cast<void*>(c.dst), c.staged.data(), c.staged.size());
  g_legacy_copies.clear();
}
} // namespace

extern "C" bool fake_cuda_stream_alive(const void* s) {
  return s && static_cast<const Stream*>(s)->magic == k_live_stream;
}

extern "C" {
int cuInit(unsigned) { return static_cast<int>(env_or("FAKE_CU_INIT", 0)); }
int cuDriverGetVersion(int* v) {
  *v = static_cast<int>(env_or("FAKE_DRIVER_API", 12040));  // the CUDA version the driver runs: 12040 = 12.4
  return 0;
}
int cuDeviceGetCount(int* n) {
  *n = 1;
  return 0;
}
int cuDeviceGet(int* d, int ordinal) {
  FAIL_IF_SCRIPTED("cuDeviceGet");
  *d = ordinal;
  return 0;
}
int cuDeviceGetName(char* name, int len, int) {
  const char* n = std::getenv("FAKE_GPU_NAME");
  std::snprintf(name, static_cast<std::size_t>(len), "%s", n ? n : "NVIDIA Fake GPU");
  return 0;
}
int cuDeviceGetAttribute(int* v, int attribute, int) {
  *v = attribute == 75 ? static_cast<int>(env_or("FAKE_CC_MAJOR", 8)) : attribute == 76 ? static_cast<int>(env_or("FAKE_CC_MINOR", 0)) : 0;
  return 0;
}
}

// The driver calls the workload makes: memory is host memory, events report a scripted time.
extern "C" {
int cuDevicePrimaryCtxRetain(void** ctx, int) {
  FAIL_IF_SCRIPTED("cuDevicePrimaryCtxRetain");
  static int c;
  *ctx = &c;
  return 0;
}
int cuDevicePrimaryCtxRelease_v2(int) { return 0; }
int cuCtxSetCurrent(void*) {
  FAIL_IF_SCRIPTED("cuCtxSetCurrent");
  return 0;
}
int cuMemAlloc_v2(unsigned long long* p, std::size_t bytes) {
  if (env_or("FAKE_OOM", 0)) return 2;  // CUDA_ERROR_OUT_OF_MEMORY
  FAIL_IF_SCRIPTED("cuMemAlloc");
  void* m = std::calloc(1, bytes);
  *p = reinterpret_cast<unsigned long long>(m);
  return m ? 0 : 2;
}
int cuMemFree_v2(unsigned long long p) {
  std::free(reinterpret_cast<void*>(p));
  return 0;
}
int cuMemsetD8_v2(unsigned long long p, unsigned char v, std::size_t n) {
  std::memset(reinterpret_cast<void*>(p), v, n);
  return 0;
}
int cuMemcpyHtoD_v2(unsigned long long dst, const void* src, std::size_t n) {
  const auto* bytes = static_cast<const unsigned char*>(src);
  g_legacy_copies.push_back({dst, std::vector<unsigned char>(bytes, bytes + n)});
  return 0;
}
int cuMemcpyHtoDAsync_v2(unsigned long long dst, const void* src, std::size_t n, void* stream) {
  FAIL_IF_SCRIPTED("cuMemcpyHtoDAsync");
  if (!stream) return cuMemcpyHtoD_v2(dst, src, n);            // the legacy stream: as above
  if (!fake_cuda_stream_alive(stream)) return 400;              // CUDA_ERROR_INVALID_HANDLE
  std::memcpy(reinterpret_cast<void*>(dst), src, n);            // ordered on its stream: there before the next kernel
  return 0;
}
int cuMemcpyDtoH_v2(void* dst, unsigned long long src, std::size_t n) {
  flush_legacy_stream();  // a synchronous copy on the legacy stream waits for the legacy stream's work
  std::memcpy(dst, reinterpret_cast<const void*>(src), n);
  return 0;
}
int cuCtxSynchronize() {
  flush_legacy_stream();
  return 0;
}
int cuStreamCreate(void** s, unsigned) {
  FAIL_IF_SCRIPTED("cuStreamCreate");
  *s = new Stream{k_live_stream};
  return 0;
}
int cuStreamSynchronize(void* s) {
  FAIL_IF_SCRIPTED("cuStreamSynchronize");
  if (!s) flush_legacy_stream();  // the legacy stream itself
  return 0;
}
int cuStreamDestroy_v2(void* s) {
  if (!fake_cuda_stream_alive(s)) return 400;
  static_cast<Stream*>(s)->magic = k_dead_stream;  // kept (not freed) so a later use is detected, not undefined
  return 0;
}
int cuEventCreate(void** e, unsigned) {
  FAIL_IF_SCRIPTED("cuEventCreate");
  *e = std::malloc(1);
  return 0;
}
int cuEventRecord(void*, void*) {
  FAIL_IF_SCRIPTED("cuEventRecord");
  return 0;
}
int cuEventSynchronize(void*) {
  FAIL_IF_SCRIPTED("cuEventSynchronize");
  if (const long ms = env_or("FAKE_EVENT_SLEEP_MS", 0)) std::this_thread::sleep_for(std::chrono::milliseconds(ms));  // a slow GPU
  return 0;
}
int cuEventElapsedTime(float* ms, void*, void*) {
  FAIL_IF_SCRIPTED("cuEventElapsedTime");
  const char* v = std::getenv("FAKE_EVENT_MS");
  *ms = v ? std::strtof(v, nullptr) : 2.0f;
  return 0;
}
int cuEventDestroy_v2(void* e) {
  std::free(e);
  return 0;
}
}
