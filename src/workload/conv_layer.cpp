#include "cudnnctl/workload/conv_layer.hpp"

#include <chrono>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "cudnnctl/gpu/status_names.hpp"
#include "cudnnctl/workload/conv_workload.hpp"

#include "step_failure.hpp"

namespace cudnnctl {

using namespace abi;

Expected<ConvDescriptors, int> ConvDescriptors::make(const Api& api, const ConvShape& s, bool fp16) {
  ConvDescriptors d(api);
  const int dtype = fp16 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  const int format = fp16 ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
  int st = api.create_tensor(&d.x);
  if (st == 0) st = api.create_tensor(&d.y);
  if (st == 0) st = api.create_filter(&d.w);
  if (st == 0) st = api.create_conv(&d.conv);
  if (st == 0) st = api.set_tensor(d.x, format, dtype, s.n, s.c, s.h, s.w);
  if (st == 0) st = api.set_filter(d.w, dtype, format, s.k, s.c, s.r, s.s);
  if (st == 0) st = api.set_conv(d.conv, s.pad, s.pad, s.stride, s.stride, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
  if (st == 0) st = api.set_math(d.conv, fp16 ? CUDNN_TENSOR_OP_MATH : CUDNN_FMA_MATH);
  if (st == 0) st = api.output_dim(d.conv, d.x, d.w, &d.n, &d.k, &d.p, &d.q);
  if (st == 0) st = api.set_tensor(d.y, format, dtype, d.n, d.k, d.p, d.q);
  if (st != 0) return Unexpected<int>(st);
  return d;
}

ConvDescriptors::ConvDescriptors(ConvDescriptors&& o) noexcept : x(o.x), y(o.y), w(o.w), conv(o.conv), n(o.n), k(o.k), p(o.p), q(o.q), m_api(o.m_api) {
  o.x = o.y = nullptr;
  o.w = nullptr;
  o.conv = nullptr;
}

ConvDescriptors::~ConvDescriptors() {
  if (x) m_api->destroy_tensor(x);
  if (y) m_api->destroy_tensor(y);
  if (w) m_api->destroy_filter(w);
  if (conv) m_api->destroy_conv(conv);
}

namespace {

// What runs after each convolution on its output (y's descriptor and buffer): the unfused bias + ReLU.
using Epilogue = std::function<int(cudnnTensorDescriptor_t, CUdeviceptr)>;

// One convolution to run: timed, or with `once` run on its inputs and read back; `epilogue` (if any)
// runs after every forward call.
struct ConvJob {
  const LayerRun& run;
  const ConvShape& s;
  bool fp16;
  ConvCheckData* once;
  const Epilogue* epilogue;
  std::size_t elem() const { return fp16 ? 2 : 4; }
};

StepFailure cudnn_failure(const ConvJob& job, int status, const std::string& where) {
  return {status, fmt::format("{}: {}", where, workload_failure_cause(status, job.run.major))};
}

LayerResult failed(LayerResult r, StepFailure f) {
  r.status = f.status;
  r.error = std::move(f.error);
  return r;
}

// x, w and y on the GPU, x and w uploaded (the given inputs, or a pseudo-random pattern)
struct ConvBuffers {
  CUdeviceptr x = 0, w = 0, y = 0;
  std::size_t x_bytes = 0, w_bytes = 0, y_bytes = 0;
};

Expected<ConvBuffers, StepFailure> prepare_buffers(const ConvJob& job, const ConvDescriptors& d, Buffers& buf) {
  const Api& api = job.run.api;
  const auto& s = job.s;
  const std::size_t elem = job.elem();
  ConvBuffers b;
  b.x_bytes = static_cast<std::size_t>(s.n) * s.c * s.h * s.w * elem;
  b.w_bytes = static_cast<std::size_t>(s.k) * s.c * s.r * s.s * elem;
  b.y_bytes = static_cast<std::size_t>(d.n) * d.k * d.p * d.q * elem;
  int cu = 0;
  const auto x = buf.alloc(b.x_bytes, cu);
  const auto w = x ? buf.alloc(b.w_bytes, cu) : std::nullopt;
  const auto y = w ? buf.alloc(b.y_bytes, cu) : std::nullopt;
  if (!y)
    return Unexpected<StepFailure>(driver_failure(fmt::format("allocating {:.0f} MiB of GPU memory failed: {}",
                                                          static_cast<double>(b.x_bytes + b.w_bytes + b.y_bytes) / 1048576.0, cu_result_name(cu))));
  b.x = *x;
  b.w = *w;
  b.y = *y;
  const auto* once = job.once;
  const auto stream = job.run.stream;
  cu = once ? upload(api, stream, b.x, once->x.data(), b.x_bytes) : upload_pattern(api, stream, b.x, b.x_bytes / elem, job.fp16, 1);
  if (cu == 0) cu = once ? upload(api, stream, b.w, once->w.data(), b.w_bytes) : upload_pattern(api, stream, b.w, b.w_bytes / elem, job.fp16, 2);
  if (cu != 0) return Unexpected<StepFailure>(driver_failure("uploading the inputs failed: cuMemcpyHtoDAsync: " + cu_result_name(cu)));
  return b;
}

// The algorithm: the heuristics' first that runs within the workspace cap; with run.find (and
// cudnnFindConvolutionForwardAlgorithmEx) the fastest that cuDNN's own timing found, whose workspace
// (the cap) is kept for the run.
struct Algorithm {
  cudnnConvolutionFwdAlgoPerf_t perf;
  std::optional<CUdeviceptr> workspace;
};

Expected<Algorithm, StepFailure> choose_algorithm(const ConvJob& job, const ConvDescriptors& d, const ConvBuffers& b, Buffers& buf) {
  const Api& api = job.run.api;
  cudnnConvolutionFwdAlgoPerf_t perf[8]{};
  int returned = 0;
  const int st = api.get_algo(job.run.handle, d.x, d.w, d.conv, d.y, 8, &returned, perf);
  if (st != 0 || returned == 0) return Unexpected<StepFailure>(cudnn_failure(job, st, "choosing an algorithm"));
  const std::size_t ws_cap = 256u << 20;
  std::optional<cudnnConvolutionFwdAlgoPerf_t> chosen;
  for (int i = 0; i < returned; ++i)
    if (perf[i].status == 0 && perf[i].memory <= ws_cap) {
      chosen = perf[i];
      break;
    }
  std::optional<CUdeviceptr> ws;
  if (job.run.find && api.find_algo) {
    int cu = 0;
    ws = buf.alloc(ws_cap, cu);
    if (ws) {
      cudnnConvolutionFwdAlgoPerf_t found[8]{};
      int nfound = 0;
      if (api.find_algo(job.run.handle, d.x, reinterpret_cast<const void*>(b.x), d.w, reinterpret_cast<const void*>(b.w), d.conv, d.y,
                        reinterpret_cast<void*>(b.y), 8, &nfound, found, reinterpret_cast<void*>(*ws), ws_cap) == 0)
        for (int i = 0; i < nfound; ++i)
          if (found[i].status == 0) {
            chosen = found[i];
            break;
          }
    }
  }
  if (!chosen)
    return Unexpected<StepFailure>(
        StepFailure{perf[0].status, fmt::format("no algorithm can run this layer: {}", workload_failure_cause(perf[0].status, job.run.major))});
  return Algorithm{*chosen, ws};
}

// `warmups` calls (one when run once), then for a timed run calls for `warmup_ms` while the clocks
// ramp up; the stream synchronized at the end
std::optional<StepFailure> warm_up(const ConvJob& job, const std::function<int()>& forward) {
  const auto& run = job.run;
  int st = 0;
  for (int i = 0; i < (job.once ? 1 : run.warmups); ++i)
    if ((st = forward()) != 0) return cudnn_failure(job, st, "running the convolution");
  int cu = 0;
  if (!job.once && run.warmup_ms > 0) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(run.warmup_ms);
    while (std::chrono::steady_clock::now() < until) {
      for (int i = 0; i < 10; ++i)
        if ((st = forward()) != 0) return cudnn_failure(job, st, "running the convolution");
      if ((cu = run.api.stream_sync(run.stream)) != 0) return driver_failure("cuStreamSynchronize failed: " + cu_result_name(cu));
    }
  }
  if ((cu = run.api.stream_sync(run.stream)) != 0) return driver_failure("cuStreamSynchronize failed: " + cu_result_name(cu));
  return std::nullopt;
}

// One convolution set up and run (then the epilogue, if any, after every forward call): timed, or
// run once on its inputs and read back.
LayerResult run_conv(const ConvJob& job) {
  const LayerRun& run = job.run;
  const Api& api = run.api;
  LayerResult r;
  r.layer = job.s.name;
  r.precision = job.fp16 ? "fp16 NHWC" : "fp32 NCHW";
  auto d = ConvDescriptors::make(api, job.s, job.fp16);
  if (!d) return failed(r, cudnn_failure(job, d.error(), "setting up the descriptors"));
  Buffers buf(api);
  const auto b = prepare_buffers(job, *d, buf);
  if (!b) return failed(r, b.error());
  auto algo = choose_algorithm(job, *d, *b, buf);
  if (!algo) return failed(r, algo.error());
  const auto& chosen = algo->perf;
  if (const int st = api.set_math(d->conv, chosen.mathType); st != 0) return failed(r, cudnn_failure(job, st, "setting the algorithm's math type"));
  r.algo = algo_name(chosen.algo);
  r.math = math_name(chosen.mathType);
  r.workspace_mib = static_cast<double>(chosen.memory) / 1048576.0;
  auto& ws = algo->workspace;
  if (!ws && chosen.memory > 0) {
    int cu = 0;
    ws = buf.alloc(chosen.memory, cu);
    if (!ws) return failed(r, driver_failure(fmt::format("allocating the {:.1f} MiB workspace failed: {}", r.workspace_mib, cu_result_name(cu))));
  }
  const float alpha = 1.f, beta = 0.f;
  auto forward = [&] {
    const int status = api.forward(run.handle, &alpha, d->x, reinterpret_cast<const void*>(b->x), d->w, reinterpret_cast<const void*>(b->w),
                                   d->conv, chosen.algo, ws ? reinterpret_cast<void*>(*ws) : nullptr, chosen.memory, &beta, d->y,
                                   reinterpret_cast<void*>(b->y));
    return status == 0 && job.epilogue ? (*job.epilogue)(d->y, b->y) : status;
  };
  if (auto f = warm_up(job, forward)) return failed(r, std::move(*f));
  if (job.once) {
    job.once->y.resize(b->y_bytes / job.elem());
    if (const int cu = api.dtoh(job.once->y.data(), b->y, b->y_bytes); cu != 0)
      return failed(r, driver_failure("reading the result back failed: " + cu_result_name(cu)));
    return r;
  }
  const auto t = time_per_call(api, run.stream, run.repeats, run.timed_calls, forward);
  if (!t && !t.error().driver_error.empty()) return failed(r, driver_failure("timing the convolution: " + t.error().driver_error));
  if (!t) return failed(r, cudnn_failure(job, t.error().status, "running the convolution"));
  r.median_ms = t->median_ms;
  r.min_ms = t->min_ms;
  r.tflops = job.s.tflops_at(r.median_ms);
  if (run.peak) r.pct_of_peak = 100.0 * r.tflops / (job.fp16 ? run.peak->fp16_dense_tflops : run.peak->fp32_tflops);
  return r;
}

} // namespace

LayerResult time_layer(const LayerRun& run, const ConvShape& s, bool fp16) { return run_conv({run, s, fp16, nullptr, nullptr}); }

LayerResult run_layer_once(const LayerRun& run, ConvCheckData& check) { return run_conv({run, check.shape, false, &check, nullptr}); }

LayerResult time_unfused(const LayerRun& run, const ConvShape& s) {
  const Api& api = run.api;
  LayerResult r;
  r.layer = s.name;
  cudnnTensorDescriptor_t bd = nullptr;
  cudnnActivationDescriptor_t ad = nullptr;
  struct Cleanup {
    const Api& a;
    cudnnTensorDescriptor_t& b;
    cudnnActivationDescriptor_t& act;
    ~Cleanup() {
      if (b) a.destroy_tensor(b);
      if (act) a.destroy_act(act);
    }
  } cleanup{api, bd, ad};
  int st = api.create_tensor(&bd);
  if (st == 0) st = api.create_act(&ad);
  if (st == 0) st = api.set_tensor(bd, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, s.k, 1, 1);
  if (st == 0) st = api.set_act(ad, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0);
  Buffers buf(api);
  int cu = 0;
  const auto bias = st == 0 ? buf.alloc(static_cast<std::size_t>(s.k) * 2, cu) : std::nullopt;
  if (bias) cu = upload_pattern(api, run.stream, *bias, static_cast<std::size_t>(s.k), true, 3);
  if (!bias || cu != 0) {
    r.status = st ? st : -1;
    r.error = st ? "setting up bias and ReLU: " + workload_failure_cause(st, run.major) : "the bias on the GPU: " + cu_result_name(cu);
    return r;
  }
  const float one = 1.f, zero = 0.f;
  const Epilogue bias_relu = [&](cudnnTensorDescriptor_t yd, CUdeviceptr y) {
    int status = api.add_tensor(run.handle, &one, bd, reinterpret_cast<const void*>(*bias), &one, yd, reinterpret_cast<void*>(y));
    if (status == 0)
      status = api.act_forward(run.handle, ad, &one, yd, reinterpret_cast<const void*>(y), &zero, yd, reinterpret_cast<void*>(y));
    return status;
  };
  LayerRun unpeaked = run;
  unpeaked.peak.reset();
  return run_conv({unpeaked, s, true, nullptr, &bias_relu});
}

} // namespace cudnnctl
