// A stand-in for libcudnn.so.9 with scripted results, for the doctor's tests. Like NVIDIA's shim it
// loads its sub-libraries from its own folder at the first call and aborts when libcudnn_graph is missing.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
std::string own_dir() {
  Dl_info info{};
  dladdr(reinterpret_cast<void*>(&own_dir), &info);
  std::string p = info.dli_fname ? info.dli_fname : "";
  return p.substr(0, p.rfind('/'));
}
void* sub(const char* name) { return dlopen((own_dir() + "/" + name).c_str(), RTLD_NOW | RTLD_LOCAL); }
void need_graph() {
  if (!sub("libcudnn_graph.so.9")) {
    std::fprintf(stderr, "Invalid handle. Cannot load symbol cudnnGetVersion\n");
    std::abort();
  }
}
long env_or(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtol(v, nullptr, 10) : fallback;
}
int check(const char* lib) { return sub(lib) ? 0 : 3009; }
} // namespace

extern "C" {
std::size_t cudnnGetVersion() {
  need_graph();
  return static_cast<std::size_t>(env_or("FAKE_CUDNN_VERSION", 90100));
}
std::size_t cudnnGetCudartVersion() { return 12040; }
std::size_t cudnnGetMaxDeviceVersion() { return static_cast<std::size_t>(env_or("FAKE_MAX_DEVICE", 900)); }
int cudnnGraphVersionCheck() { return check("libcudnn_graph.so.9"); }
int cudnnOpsVersionCheck() { return check("libcudnn_ops.so.9"); }
int cudnnCnnVersionCheck() { return check("libcudnn_cnn.so.9"); }
int cudnnAdvVersionCheck() { return check("libcudnn_adv.so.9"); }
int cudnnCreate(void** handle) {
  const int status = static_cast<int>(env_or("FAKE_CREATE_STATUS", 0));
  static int dummy;
  *handle = status == 0 ? &dummy : nullptr;
  return status;
}
int cudnnDestroy(void*) { return 0; }
void cudnnGetLastErrorString(char* buf, std::size_t n) {
  const char* text = std::getenv("FAKE_LAST_ERROR");
  std::snprintf(buf, n, "%s", text ? text : "");
}
}
