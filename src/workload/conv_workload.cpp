#include "cudnnctl/workload/conv_workload.hpp"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/child/child_channel.hpp"
#include "cudnnctl/gpu/status_names.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/workload/conv_layer.hpp"
#include "cudnnctl/workload/fused_conv.hpp"
#include "cudnnctl/workload/gpu_session.hpp"
#include "cudnnctl/workload/workload_json.hpp"

namespace cudnnctl {

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

namespace {

// correctness first: a small fp32 convolution against the CPU
void check_correctness(const LayerRun& run, ChildChannel& out) {
  log::Phase phase("workload: correctness check");
  auto io = conv_check_data({"check 3x3", 1, 4, 6, 6, 4, 3, 3, 1, 1}, 1.f / 4.f, false);
  const auto check = run_layer_once(run, io);
  const auto verdict = check.status == 0 ? judge_check(io, 1e-3, 0.0) : CheckVerdict{};
  out.emit("correctness", {{"ok", verdict.ok}, {"max_error", verdict.max_error}, {"error", check.error}});
}

// the fused graph on every fusable layer, each beside its unfused sequence
FusedResult fused_comparison(const LayerRun& run, const std::vector<ConvShape>& layers, bool quick) {
  log::Phase phase("workload: fused conv+bias+ReLU");
  const auto fusable = fusable_layers(layers);
  FusedRun fr;
  fr.warmups = run.warmups;
  fr.timed_calls = run.timed_calls;
  fr.repeats = run.repeats;
  fr.max_configs = quick ? 1 : 4;
  GraphTarget target{run.handle, nullptr};
  auto fused = run_fused_set(run.api, target, run.stream, fusable, run.major, fr);
  for (std::size_t i = 0; i < fused.layers.size() && i < fusable.size(); ++i) {
    auto& f = fused.layers[i];
    if (f.status != 0) continue;
    const auto unfused = time_unfused(run, fusable[i]);
    if (!unfused.error.empty()) {
      f.status = unfused.status;
      f.error = "the unfused sequence: " + unfused.error;
      continue;
    }
    f.unfused_ms = unfused.median_ms;
    f.unfused_min_ms = unfused.min_ms;
    if (f.fused_ms > 0) f.speedup = f.unfused_ms / f.fused_ms;
  }
  return fused;
}

} // namespace

int run_workload_child(const WorkloadRequest& req, std::ostream& stream) {
  ChildChannel out(stream);
  const auto t0 = std::chrono::steady_clock::now();
  auto cudnn = platform::load_library(req.cudnn_library);
  auto driver = platform::load_library(req.driver_library);
  if (!cudnn || !driver) {
    out.emit("error", {{"error", !cudnn ? cudnn.error().message : driver.error().message}});
    return 0;
  }
  std::vector<std::string> missing;
  const Api api = load_api(*cudnn, *driver, missing);
  if (!missing.empty()) {
    out.emit("error", {{"error", fmt::format("missing symbols: {}", fmt::join(missing, ", "))}});
    return 0;
  }
  auto session = GpuSession::open(api);
  if (!session) {
    out.emit("error", {{"error", session.error()}});
    return 0;
  }
  GpuSession& gpu = **session;
  const auto peak = peak_for(gpu.device_name());
  out.emit("device", {{"name", gpu.device_name()}, {"cc_major", gpu.cc_major()}, {"cc_minor", gpu.cc_minor()}});
  if (auto h = gpu.create_handle(); !h) {
    out.emit("error", {{"error", "cudnnCreate failed: " + workload_failure_cause(h.error(), req.major)}});
    return 0;
  }
  LayerRun run{api, gpu.handle(), gpu.stream(), req.major, !req.quick, req.warmups, req.timed_calls, req.repeats, peak};
  check_correctness(run, out);
  // the first timed layer warms the GPU's clocks up first, for a time rather than a count
  run.warmup_ms = req.warmup_ms;
  const auto layers = resnet50_layers(req.quick);
  for (const auto& shape : layers)
    for (bool fp16 : {true, false}) {
      const auto result = time_layer(run, shape, fp16);
      log::info("workload: {} {}: {}", shape.name, result.precision,
                result.status == 0 ? fmt::format("{:.3f} ms with {}", result.median_ms, result.algo) : result.error);
      out.emit("layer", {{"result", result}});
      run.warmup_ms = 0;
    }
  if (req.fused) out.emit("fused", {{"result", fused_comparison(run, layers, req.quick)}});
  session->reset();  // cudnnDestroy, then the stream, then the context, before "done"
  const auto wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  out.emit("done", {{"wall_ms", wall}});
  return 0;
}

Result<WorkloadResult> run_workload(const std::string& self_exe, const WorkloadRequest& req, int timeout_ms) {
  std::vector<std::string> argv{self_exe, "__workload", "--cudnn-library", req.cudnn_library, "--major", std::to_string(req.major),
                                "--driver-library", req.driver_library, "--warmup-ms", std::to_string(req.warmup_ms)};
  if (!req.quick) argv.push_back("--full");
  if (req.fused) argv.push_back("--fused");
  CUDNNCTL_TRY_ASSIGN(auto child, run_child_steps(argv, timeout_ms));
  WorkloadResult r;
  if (child.timed_out) r.error = fmt::format("the workload did not finish within {} s", timeout_ms / 1000);
  else if (child.signal) r.error = fmt::format("the workload process died (signal {}): {}", child.signal, child.err.substr(0, 400));
  for (const auto& j : child.steps) try {
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
      r.layers.push_back(j.at("result").get<LayerResult>());
    } else if (step == "fused") {
      r.fused = j.at("result").get<FusedResult>();
    } else if (step == "done") {
      r.completed = true;
      r.wall_ms = j.value("wall_ms", 0.0);
    }
  } catch (const nlohmann::json::exception&) {
    // a line of the wrong shape (a child of another version): skipped like a half-written one
  }
  return r;
}

} // namespace cudnnctl
