#include "cudnnctl/workload/conv_workload.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/doctor/probe.hpp"
#include "cudnnctl/doctor/status_names.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/workload/abi.hpp"
#include "cudnnctl/workload/fused_conv.hpp"
#include "cudnnctl/workload/loaded_api.hpp"

namespace cudnnctl {

using namespace abi;

std::vector<ConvShape> resnet50_layers(bool quick) {
  // N = 64; MLPerf ResNet-50 v1.5 shapes (cudnn-runtime.md section 5)
  std::vector<ConvShape> quick_set = {{"res2 3x3", 64, 64, 56, 56, 64, 3, 3, 1, 1},
                                      {"res4 3x3", 64, 256, 14, 14, 256, 3, 3, 1, 1},
                                      {"res5 3x3", 64, 512, 7, 7, 512, 3, 3, 1, 1},
                                      {"res3 1x1 expand", 64, 128, 28, 28, 512, 1, 1, 1, 0}};
  if (quick) return quick_set;
  std::vector<ConvShape> full = {{"conv1 stem 7x7", 64, 3, 224, 224, 64, 7, 7, 2, 3}};
  full.insert(full.end(), quick_set.begin(), quick_set.end());
  full.push_back({"res3 3x3", 64, 128, 28, 28, 128, 3, 3, 1, 1});
  full.push_back({"res4 1x1 reduce", 64, 1024, 14, 14, 256, 1, 1, 1, 0});
  return full;
}

std::optional<DevicePeak> peak_for(const std::string& name) {
  // dense tensor-core fp16 and non-tensor fp32, NVIDIA datasheets as collected in cudnn-runtime.md section 5
  if (name.find("H200 NVL") != std::string::npos) return DevicePeak{835, 60, "NVIDIA H200 datasheet (NVL column)"};
  if (name.find("H200") != std::string::npos) return DevicePeak{989, 67, "NVIDIA H200 datasheet (SXM, dense)"};
  if (name.find("H100") != std::string::npos && name.find("PCIe") == std::string::npos)
    return DevicePeak{989.4, 66.9, "NVIDIA H100 SXM datasheet (dense)"};
  if (name.find("A100") != std::string::npos) return DevicePeak{312, 19.5, "NVIDIA A100 datasheet (dense)"};
  return std::nullopt;
}

std::string workload_failure_cause(int status, unsigned major) {
  const auto name = cudnn_status_name(status, major);
  if (name.find("EXECUTION_FAILED") != std::string::npos)
    return name + ": the GPU could not run cuDNN's kernel; when some layers work and others fail, this cuDNN is too new for the GPU's "
                  "architecture (cuDNN 9.11+ dropped Maxwell, Pascal and Volta) or too old for it";
  if (name.find("ARCH_MISMATCH") != std::string::npos)
    return name + ": this cuDNN has no kernels for the GPU's architecture; use a cuDNN built for it";
  if (name.find("ALLOC") != std::string::npos || name.find("NOT_INITIALIZED") != std::string::npos)
    return name + ": often GPU memory is exhausted (other processes: nvidia-smi)";
  return name;
}

std::vector<float> reference_conv(const std::vector<float>& x, const std::vector<float>& w, const ConvShape& s) {
  const int P = s.p(), Q = s.q();
  std::vector<float> y(static_cast<std::size_t>(s.n) * s.k * P * Q, 0.f);
  for (int n = 0; n < s.n; ++n)
    for (int k = 0; k < s.k; ++k)
      for (int p = 0; p < P; ++p)
        for (int q = 0; q < Q; ++q) {
          double acc = 0;
          for (int c = 0; c < s.c; ++c)
            for (int r = 0; r < s.r; ++r)
              for (int t = 0; t < s.s; ++t) {
                const int h = p * s.stride - s.pad + r, ww = q * s.stride - s.pad + t;
                if (h < 0 || h >= s.h || ww < 0 || ww >= s.w) continue;
                acc += static_cast<double>(x[((static_cast<std::size_t>(n) * s.c + c) * s.h + h) * s.w + ww]) *
                       w[((static_cast<std::size_t>(k) * s.c + c) * s.r + r) * s.s + t];
              }
          y[((static_cast<std::size_t>(n) * s.k + k) * P + p) * Q + q] = static_cast<float>(acc);
        }
  return y;
}

namespace {

void emit(std::ostream& out, const nlohmann::json& j) { out << j.dump() << "\n" << std::flush; }

// What runs after each convolution on its output (y's descriptor and buffer): the unfused bias + ReLU.
using Epilogue = std::function<int(cudnnTensorDescriptor_t, CUdeviceptr)>;

// One convolution set up and run (then `epilogue`, if any, after every forward call); fills the result.
LayerResult run_layer(const Api& api, cudnnHandle_t h, CUstream stream, const ConvShape& s, bool fp16, const WorkloadRequest& req,
                      const std::optional<DevicePeak>& peak, std::vector<float>* y_out = nullptr,
                      const std::vector<float>* x_in = nullptr, const std::vector<float>* w_in = nullptr,
                      const Epilogue* epilogue = nullptr) {
  LayerResult r;
  r.layer = s.name;
  r.precision = fp16 ? "fp16 NHWC" : "fp32 NCHW";
  const int dtype = fp16 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  const int format = fp16 ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  const std::size_t elem = fp16 ? 2 : 4;
  cudnnTensorDescriptor_t xd = nullptr, yd = nullptr;
  cudnnFilterDescriptor_t wd = nullptr;
  cudnnConvolutionDescriptor_t cd = nullptr;
  auto fail_with = [&](int status, const std::string& where) {
    r.status = status;
    r.error = fmt::format("{}: {}", where, workload_failure_cause(status, req.major));
  };
  api.create_tensor(&xd);
  api.create_tensor(&yd);
  api.create_filter(&wd);
  api.create_conv(&cd);
  struct Cleanup {
    const Api& a;
    cudnnTensorDescriptor_t x, y;
    cudnnFilterDescriptor_t w;
    cudnnConvolutionDescriptor_t c;
    ~Cleanup() {
      a.destroy_tensor(x);
      a.destroy_tensor(y);
      a.destroy_filter(w);
      a.destroy_conv(c);
    }
  } cleanup{api, xd, yd, wd, cd};
  int st = api.set_tensor(xd, format, dtype, s.n, s.c, s.h, s.w);
  if (st == 0) st = api.set_filter(wd, dtype, format, s.k, s.c, s.r, s.s);
  if (st == 0) st = api.set_conv(cd, s.pad, s.pad, s.stride, s.stride, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
  if (st == 0) st = api.set_math(cd, fp16 ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH);
  int n = 0, k = 0, p = 0, q = 0;
  if (st == 0) st = api.output_dim(cd, xd, wd, &n, &k, &p, &q);
  if (st == 0) st = api.set_tensor(yd, format, dtype, n, k, p, q);
  if (st != 0) {
    fail_with(st, "setting up the descriptors");
    return r;
  }
  Buffers buf{api, {}};
  int cu = 0;
  const std::size_t xbytes = static_cast<std::size_t>(s.n) * s.c * s.h * s.w * elem;
  const std::size_t wbytes = static_cast<std::size_t>(s.k) * s.c * s.r * s.s * elem;
  const std::size_t ybytes = static_cast<std::size_t>(n) * k * p * q * elem;
  const auto x = buf.alloc(xbytes, cu);
  const auto w = x ? buf.alloc(wbytes, cu) : std::nullopt;
  const auto y = w ? buf.alloc(ybytes, cu) : std::nullopt;
  if (!y) {
    r.status = -1;
    r.error = fmt::format("allocating {:.0f} MiB of GPU memory failed: {}", static_cast<double>(xbytes + wbytes + ybytes) / 1048576.0, cu_result_name(cu));
    return r;
  }
  if (x_in && w_in) {
    api.htod(*x, x_in->data(), xbytes);
    api.htod(*w, w_in->data(), wbytes);
  } else {
    upload_pattern(api, *x, xbytes / elem, fp16, 1);
    upload_pattern(api, *w, wbytes / elem, fp16, 2);
  }
  cudnnConvolutionFwdAlgoPerf_t perf[8]{};
  int returned = 0;
  st = api.get_algo(h, xd, wd, cd, yd, 8, &returned, perf);
  if (st != 0 || returned == 0) {
    fail_with(st, "choosing an algorithm");
    return r;
  }
  const std::size_t ws_cap = 256u << 20;
  std::optional<cudnnConvolutionFwdAlgoPerf_t> chosen;
  for (int i = 0; i < returned; ++i)
    if (perf[i].status == 0 && perf[i].memory <= ws_cap) {
      chosen = perf[i];
      break;
    }
  std::optional<CUdeviceptr> ws;
  if (!req.quick && api.find_algo) {  // full bench: time every algorithm, as torch.backends.cudnn.benchmark does
    ws = buf.alloc(ws_cap, cu);
    if (ws) {
      cudnnConvolutionFwdAlgoPerf_t found[8]{};
      int nfound = 0;
      if (api.find_algo(h, xd, reinterpret_cast<const void*>(*x), wd, reinterpret_cast<const void*>(*w), cd, yd,
                        reinterpret_cast<void*>(*y), 8, &nfound, found, reinterpret_cast<void*>(*ws), ws_cap) == 0)
        for (int i = 0; i < nfound; ++i)
          if (found[i].status == 0) {
            chosen = found[i];
            break;
          }
    }
  }
  if (!chosen) {
    r.status = perf[0].status;
    r.error = fmt::format("no algorithm can run this layer: {}", workload_failure_cause(perf[0].status, req.major));
    return r;
  }
  api.set_math(cd, chosen->mathType);
  r.algo = algo_name(chosen->algo);
  r.math = math_name(chosen->mathType);
  r.workspace_mib = static_cast<double>(chosen->memory) / 1048576.0;
  if (!ws && chosen->memory > 0) {
    ws = buf.alloc(chosen->memory, cu);
    if (!ws) {
      r.status = -1;
      r.error = fmt::format("allocating the {:.1f} MiB workspace failed: {}", r.workspace_mib, cu_result_name(cu));
      return r;
    }
  }
  const float alpha = 1.f, beta = 0.f;
  auto forward = [&] {
    const int status = api.forward(h, &alpha, xd, reinterpret_cast<const void*>(*x), wd, reinterpret_cast<const void*>(*w), cd,
                                   chosen->algo, ws ? reinterpret_cast<void*>(*ws) : nullptr, chosen->memory, &beta, yd,
                                   reinterpret_cast<void*>(*y));
    return status == 0 && epilogue ? (*epilogue)(yd, *y) : status;
  };
  for (int i = 0; i < req.warmups; ++i)
    if ((st = forward()) != 0) {
      fail_with(st, "running the convolution");
      return r;
    }
  api.stream_sync(stream);
  if (y_out) {
    y_out->resize(ybytes / elem);
    api.dtoh(y_out->data(), *y, ybytes);
    return r;
  }
  const auto t = time_per_call(api, stream, req.repeats, req.timed_calls, forward, st);
  if (!t) {
    fail_with(st, "running the convolution");
    return r;
  }
  r.median_ms = t->median_ms;
  r.min_ms = t->min_ms;
  r.tflops = r.median_ms > 0 ? s.flops() / (r.median_ms / 1e3) / 1e12 : 0;
  if (peak) r.pct_of_peak = 100.0 * r.tflops / (fp16 ? peak->fp16_dense_tflops : peak->fp32_tflops);
  return r;
}

// The unfused conv + bias + ReLU that the fused graph replaces: the fp16 NHWC convolution of run_layer
// (the same algorithm choice), then cudnnAddTensor and cudnnActivationForward in place on its output.
LayerResult run_unfused(const Api& api, cudnnHandle_t h, CUstream stream, const ConvShape& s, const WorkloadRequest& req) {
  LayerResult r;
  r.layer = s.name;
  cudnnTensorDescriptor_t bd = nullptr;
  cudnnActivationDescriptor_t ad = nullptr;
  api.create_tensor(&bd);
  api.create_act(&ad);
  struct Cleanup {
    const Api& a;
    cudnnTensorDescriptor_t b;
    cudnnActivationDescriptor_t act;
    ~Cleanup() {
      a.destroy_tensor(b);
      a.destroy_act(act);
    }
  } cleanup{api, bd, ad};
  int st = api.set_tensor(bd, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, s.k, 1, 1);
  if (st == 0) st = api.set_act(ad, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0);
  Buffers buf{api, {}};
  int cu = 0;
  const auto bias = st == 0 ? buf.alloc(static_cast<std::size_t>(s.k) * 2, cu) : std::nullopt;
  if (!bias) {
    r.status = st ? st : -1;
    r.error = st ? "setting up bias and ReLU: " + workload_failure_cause(st, req.major) : "allocating the bias failed: " + cu_result_name(cu);
    return r;
  }
  upload_pattern(api, *bias, static_cast<std::size_t>(s.k), true, 3);
  const float one = 1.f, zero = 0.f;
  const Epilogue bias_relu = [&](cudnnTensorDescriptor_t yd, CUdeviceptr y) {
    int status = api.add_tensor(h, &one, bd, reinterpret_cast<const void*>(*bias), &one, yd, reinterpret_cast<void*>(y));
    if (status == 0) status = api.act_forward(h, ad, &one, yd, reinterpret_cast<const void*>(y), &zero, yd, reinterpret_cast<void*>(y));
    return status;
  };
  return run_layer(api, h, stream, s, true, req, std::nullopt, nullptr, nullptr, nullptr, &bias_relu);
}

nlohmann::json layer_json(const LayerResult& r) {
  return {{"layer", r.layer}, {"precision", r.precision}, {"algo", r.algo}, {"math", r.math}, {"workspace_mib", r.workspace_mib},
          {"median_ms", r.median_ms}, {"min_ms", r.min_ms}, {"tflops", r.tflops},
          {"pct_of_peak", r.pct_of_peak ? nlohmann::json(*r.pct_of_peak) : nlohmann::json(nullptr)}, {"status", r.status}, {"error", r.error}};
}

} // namespace

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(FusedLayerResult, layer, fused_ms, fused_min_ms, unfused_ms, unfused_min_ms, fused_tflops,
                                                speedup, workspace_mib, engine_config, configs_tried, status, error)

nlohmann::json fused_json(const FusedResult& f) {
  return {{"correctness", {{"ok", f.correctness_ok}, {"max_error", f.correctness_max_error}, {"error", f.correctness_error}}},
          {"layers", f.layers},
          {"error", f.error}};
}

FusedResult fused_from_json(const nlohmann::json& j) {
  FusedResult f;
  f.attempted = true;
  if (j.contains("correctness")) {
    f.correctness_ok = j["correctness"].value("ok", false);
    f.correctness_max_error = j["correctness"].value("max_error", 0.0);
    f.correctness_error = j["correctness"].value("error", "");
  }
  if (j.contains("layers")) f.layers = j["layers"].get<std::vector<FusedLayerResult>>();
  f.error = j.value("error", "");
  return f;
}

int run_workload_child(const WorkloadRequest& req, std::ostream& out) {
  const auto t0 = std::chrono::steady_clock::now();
  auto cudnn = platform::load_library(req.cudnn_library);
  auto driver = platform::load_library(req.driver_library);
  if (!cudnn || !driver) {
    emit(out, {{"step", "error"}, {"error", !cudnn ? cudnn.error().message : driver.error().message}});
    return 0;
  }
  std::vector<std::string> missing;
  Api a = load_api(*cudnn, *driver, missing);
  if (!missing.empty()) {
    emit(out, {{"step", "error"}, {"error", fmt::format("missing symbols: {}", fmt::format("{}", fmt::join(missing, ", ")))}});
    return 0;
  }
  if (const int r = a.cu_init(0); r != 0) {
    emit(out, {{"step", "error"}, {"error", "cuInit failed: " + cu_result_name(r)}});
    return 0;
  }
  CUdevice dev = 0;
  a.device_get(&dev, 0);
  char name[256] = {0};
  a.device_name(name, sizeof name, dev);
  int ccmaj = 0, ccmin = 0;
  a.device_attr(&ccmaj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  a.device_attr(&ccmin, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  const auto peak = peak_for(name);
  emit(out, {{"step", "device"}, {"name", name}, {"cc_major", ccmaj}, {"cc_minor", ccmin}});
  CUcontext ctx = nullptr;
  a.ctx_retain(&ctx, dev);
  a.ctx_set(ctx);
  cudnnHandle_t h = nullptr;
  if (const int st = a.create(&h); st != 0) {
    emit(out, {{"step", "error"}, {"error", "cudnnCreate failed: " + workload_failure_cause(st, req.major)}});
    a.ctx_release(dev);
    return 0;
  }
  CUstream stream = nullptr;
  a.stream_create(&stream, 1);
  a.set_stream(h, stream);

  // correctness first: a small fp32 convolution against the CPU
  const ConvShape small{"check 3x3", 1, 4, 6, 6, 4, 3, 3, 1, 1};
  std::vector<float> x(static_cast<std::size_t>(small.n) * small.c * small.h * small.w), w(static_cast<std::size_t>(small.k) * small.c * 9);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 7 % 13) - 6) / 8.f;
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 5 % 11) - 5) / 4.f;
  std::vector<float> y;
  WorkloadRequest once = req;
  once.warmups = 1;
  const auto check = run_layer(a, h, stream, small, false, once, peak, &y, &x, &w);
  const auto ref = reference_conv(x, w, small);
  double max_err = check.status == 0 && y.size() == ref.size() ? 0 : 1e30;
  for (std::size_t i = 0; i < std::min(y.size(), ref.size()); ++i) max_err = std::max(max_err, static_cast<double>(std::fabs(y[i] - ref[i])));
  emit(out, {{"step", "correctness"}, {"ok", max_err < 1e-3}, {"max_error", max_err}, {"error", check.error}});

  for (const auto& shape : resnet50_layers(req.quick))
    for (bool fp16 : {true, false}) emit(out, {{"step", "layer"}, {"result", layer_json(run_layer(a, h, stream, shape, fp16, req, peak))}});
  if (req.fused) {
    // the stem (3 input channels) is left out: fp16 NHWC engines need channels in multiples of 8
    std::vector<ConvShape> fusable;
    for (const auto& shape : resnet50_layers(req.quick))
      if (shape.c % 8 == 0 && shape.k % 8 == 0) fusable.push_back(shape);
    FusedRun run;
    run.warmups = req.warmups;
    run.timed_calls = req.timed_calls;
    run.repeats = req.repeats;
    run.max_configs = req.quick ? 1 : 4;
    auto fused = run_fused_set(a, h, stream, fusable, req.major, run);
    for (std::size_t i = 0; i < fused.layers.size() && i < fusable.size(); ++i) {
      auto& f = fused.layers[i];
      if (f.status != 0) continue;
      const auto unfused = run_unfused(a, h, stream, fusable[i], req);
      if (!unfused.error.empty()) {
        f.status = unfused.status;
        f.error = "the unfused sequence: " + unfused.error;
        continue;
      }
      f.unfused_ms = unfused.median_ms;
      f.unfused_min_ms = unfused.min_ms;
      if (f.fused_ms > 0) f.speedup = f.unfused_ms / f.fused_ms;
    }
    emit(out, {{"step", "fused"}, {"result", fused_json(fused)}});
  }
  a.stream_destroy(stream);
  a.destroy(h);
  a.ctx_release(dev);
  const auto wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  emit(out, {{"step", "done"}, {"wall_ms", wall}});
  return 0;
}

Result<WorkloadResult> run_workload(const std::string& self_exe, const WorkloadRequest& req, int timeout_ms) {
  std::vector<std::string> argv{self_exe, "__workload", "--cudnn-library", req.cudnn_library, "--major", std::to_string(req.major),
                                "--driver-library", req.driver_library};
  if (!req.quick) argv.push_back("--full");
  if (req.fused) argv.push_back("--fused");
  auto child = platform::run_child(argv, {}, timeout_ms);
  if (!child) return Unexpected<Error>(child.error());
  WorkloadResult r;
  if (child->timed_out) r.error = fmt::format("the workload did not finish within {} s", timeout_ms / 1000);
  else if (child->signal) r.error = fmt::format("the workload process died (signal {}): {}", child->signal, child->err.substr(0, 400));
  for (const auto& j : read_json_lines(child->out)) {
    const auto step = j.value("step", "");
    if (step == "error") r.error = j.value("error", "");
    else if (step == "device") {
      r.device = j.value("name", "");
      r.cc_major = j.value("cc_major", 0);
      r.cc_minor = j.value("cc_minor", 0);
      r.peak = peak_for(r.device);
    } else if (step == "correctness") {
      r.correctness_ok = j.value("ok", false);
      r.correctness_max_error = j.value("max_error", 0.0);
    } else if (step == "layer") {
      const auto& l = j["result"];
      LayerResult lr;
      lr.layer = l.value("layer", "");
      lr.precision = l.value("precision", "");
      lr.algo = l.value("algo", "");
      lr.math = l.value("math", "");
      lr.workspace_mib = l.value("workspace_mib", 0.0);
      lr.median_ms = l.value("median_ms", 0.0);
      lr.min_ms = l.value("min_ms", 0.0);
      lr.tflops = l.value("tflops", 0.0);
      if (l.contains("pct_of_peak") && !l["pct_of_peak"].is_null()) lr.pct_of_peak = l["pct_of_peak"].get<double>();
      lr.status = l.value("status", 0);
      lr.error = l.value("error", "");
      r.layers.push_back(std::move(lr));
    } else if (step == "fused") {
      r.fused = fused_from_json(j["result"]);
    } else if (step == "done") {
      r.completed = true;
      r.wall_ms = j.value("wall_ms", 0.0);
    }
  }
  return r;
}

} // namespace cudnnctl
