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
  std::snprintf(name, static_cast<std::size_t>(len), "%s", "NVIDIA Fake GPU");
  return 0;
}
int cuDeviceGetAttribute(int* v, int attribute, int) {
  *v = attribute == 75 ? static_cast<int>(env_or("FAKE_CC_MAJOR", 8)) : attribute == 76 ? static_cast<int>(env_or("FAKE_CC_MINOR", 0)) : 0;
  return 0;
}
}
