// A stand-in for libcudnn.so.9 with scripted results, for the doctor's tests. Like NVIDIA's shim it
// loads its sub-libraries from its own folder at the first call and aborts when libcudnn_graph is missing.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fake_env.hpp"

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
// The stream cudnnSetStream bound the handle to must outlive the handle (cuDNN uses it while it tears the
// handle down): destroying the handle after its stream aborts, as a use-after-free would on a GPU.
void* g_handle_stream = nullptr;
int cudnnDestroy(void*) {
  using Alive = bool (*)(const void*);
  void* cuda = g_handle_stream ? dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD) : nullptr;
  auto alive = cuda ? reinterpret_cast<Alive>(dlsym(cuda, "fake_cuda_stream_alive")) : nullptr;
  if (alive && !alive(g_handle_stream)) {
    std::fprintf(stderr, "fake cudnnDestroy: the handle's stream was destroyed before the handle\n");
    std::abort();
  }
  if (cuda) dlclose(cuda);
  g_handle_stream = nullptr;
  return 0;
}
void cudnnGetLastErrorString(char* buf, std::size_t n) {
  const char* text = std::getenv("FAKE_LAST_ERROR");
  std::snprintf(buf, n, "%s", text ? text : "");
}
}

// The legacy convolution API the workload uses. Descriptors are plain structs; the forward pass
// computes a real fp32 NCHW convolution on host memory for small problems (the correctness check),
// and FAKE_CONV_FAIL_C=<channels> with FAKE_CONV_STATUS=<status> fails the layers with that many input
// channels ("works on some layers only").
namespace {
struct Tensor { int format, dtype, n, c, h, w; };
struct Conv { int pad_h, pad_w, u, v, math; };
}
extern "C" {
int cudnnSetStream(void*, void* stream) {
  g_handle_stream = stream;
  return 0;
}
int cudnnCreateTensorDescriptor(Tensor** t) { *t = new Tensor{}; return 0; }
int cudnnDestroyTensorDescriptor(Tensor* t) { delete t; return 0; }
int cudnnSetTensor4dDescriptor(Tensor* t, int format, int dtype, int n, int c, int h, int w) { *t = {format, dtype, n, c, h, w}; return 0; }
int cudnnCreateFilterDescriptor(Tensor** t) { *t = new Tensor{}; return 0; }
int cudnnDestroyFilterDescriptor(Tensor* t) { delete t; return 0; }
int cudnnSetFilter4dDescriptor(Tensor* t, int dtype, int format, int k, int c, int h, int w) { *t = {format, dtype, k, c, h, w}; return 0; }
int cudnnCreateConvolutionDescriptor(Conv** c) { *c = new Conv{}; return 0; }
int cudnnDestroyConvolutionDescriptor(Conv* c) { delete c; return 0; }
int cudnnSetConvolution2dDescriptor(Conv* c, int ph, int pw, int u, int v, int, int, int, int) { c->pad_h = ph; c->pad_w = pw; c->u = u; c->v = v; return 0; }
int cudnnSetConvolutionMathType(Conv* c, int math) { c->math = math; return 0; }
int cudnnGetConvolution2dForwardOutputDim(Conv* c, Tensor* x, Tensor* w, int* n, int* k, int* p, int* q) {
  *n = x->n; *k = w->n;
  *p = (x->h + 2 * c->pad_h - w->h) / c->u + 1;
  *q = (x->w + 2 * c->pad_w - w->w) / c->v + 1;
  return 0;
}
struct Perf { int algo; int status; float time; std::size_t memory; int determinism; int mathType; int reserved[3]; };
int cudnnGetConvolutionForwardAlgorithm_v7(void*, Tensor*, Tensor*, Conv* c, Tensor*, int, int* returned, Perf* perf) {
  *returned = 1;
  perf[0] = Perf{1, 0, 0.f, static_cast<std::size_t>(env_or("FAKE_WORKSPACE", 1 << 20)), 1, c->math, {0, 0, 0}};
  return 0;
}
int cudnnConvolutionForward(void*, const void* alpha, Tensor* xd, const void* x, Tensor* wd, const void* w, Conv* c, int, void*,
                            std::size_t, const void*, Tensor* yd, void* y) {
  if (xd->c == env_or("FAKE_CONV_FAIL_C", -1)) return static_cast<int>(env_or("FAKE_CONV_STATUS", 5000));
  const double flops = 2.0 * xd->n * wd->n * yd->h * yd->w * xd->c * wd->h * wd->w;
  if (flops > 1e7 || xd->dtype != 0 || xd->format != 0) return 0;  // big or fp16: nothing to compute here
  const float a = *static_cast<const float*>(alpha);
  const auto* X = static_cast<const float*>(x);
  const auto* W = static_cast<const float*>(w);
  auto* Y = static_cast<float*>(y);
  for (int n = 0; n < xd->n; ++n)
    for (int k = 0; k < wd->n; ++k)
      for (int p = 0; p < yd->h; ++p)
        for (int q = 0; q < yd->w; ++q) {
          float acc = 0;
          for (int ch = 0; ch < xd->c; ++ch)
            for (int r = 0; r < wd->h; ++r)
              for (int s = 0; s < wd->w; ++s) {
                const int h = p * c->u - c->pad_h + r, ww = q * c->v - c->pad_w + s;
                if (h < 0 || h >= xd->h || ww < 0 || ww >= xd->w) continue;
                acc += X[((n * xd->c + ch) * xd->h + h) * xd->w + ww] * W[((k * xd->c + ch) * wd->h + r) * wd->w + s];
              }
          Y[((n * wd->n + k) * yd->h + p) * yd->w + q] = a * acc + (env_or("FAKE_WRONG_RESULT", 0) ? 1.f : 0.f);
        }
  return 0;
}
}
