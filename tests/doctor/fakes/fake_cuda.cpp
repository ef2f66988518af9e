// A stand-in for the driver's libcuda.so.1 with scripted results (cuInit status, device, compute capability).
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
long env_or(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtol(v, nullptr, 10) : fallback;
}
} // namespace

extern "C" {
int cuInit(unsigned) { return static_cast<int>(env_or("FAKE_CU_INIT", 0)); }
int cuDriverGetVersion(int* v) {
  *v = 12040;
  return 0;
}
int cuDeviceGetCount(int* n) {
  *n = 1;
  return 0;
}
int cuDeviceGet(int* d, int ordinal) {
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
  static int c;
  *ctx = &c;
  return 0;
}
int cuDevicePrimaryCtxRelease_v2(int) { return 0; }
int cuCtxSetCurrent(void*) { return 0; }
int cuMemAlloc_v2(unsigned long long* p, std::size_t bytes) {
  if (env_or("FAKE_OOM", 0)) return 2;  // CUDA_ERROR_OUT_OF_MEMORY
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
  std::memcpy(reinterpret_cast<void*>(dst), src, n);
  return 0;
}
int cuMemcpyDtoH_v2(void* dst, unsigned long long src, std::size_t n) {
  std::memcpy(dst, reinterpret_cast<const void*>(src), n);
  return 0;
}
int cuStreamCreate(void** s, unsigned) {
  static int st;
  *s = &st;
  return 0;
}
int cuStreamSynchronize(void*) { return 0; }
int cuStreamDestroy_v2(void*) { return 0; }
int cuEventCreate(void** e, unsigned) {
  *e = std::malloc(1);
  return 0;
}
int cuEventRecord(void*, void*) { return 0; }
int cuEventSynchronize(void*) { return 0; }
int cuEventElapsedTime(float* ms, void*, void*) {
  const char* v = std::getenv("FAKE_EVENT_MS");
  *ms = v ? std::strtof(v, nullptr) : 2.0f;
  return 0;
}
int cuEventDestroy_v2(void* e) {
  std::free(e);
  return 0;
}
}
