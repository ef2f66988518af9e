// cudnnctl bench: the timed convolution workload on the GPU, as a table or JSON.
#include <filesystem>
#include <memory>
#include <ostream>
#include <utility>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/env/loader_path.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/workload/conv_workload.hpp"
#include "cudnnctl/workload/workload_json.hpp"

namespace cudnnctl {

namespace {
struct BenchOptions {
  std::string cuda_path;
  bool quick = false;
  std::string driver_library = "libcuda.so.1";
};

} // namespace

std::string workload_table(const WorkloadResult& r) {
  std::string out = fmt::format("device       {} (compute {}.{}); peak {}\n", r.device, r.cc_major, r.cc_minor,
                                r.peak ? fmt::format("fp16 {:.0f} / fp32 {:.1f} TFLOP/s dense ({})", r.peak->fp16_dense_tflops,
                                                     r.peak->fp32_tflops, r.peak->source)
                                       : std::string("unknown for this device (no % of peak)"));
  out += fmt::format("correctness  {} (max error {:.2g} against a CPU reference)\n", r.correctness_ok ? "ok" : "WRONG RESULTS",
                     r.correctness_max_error);
  out += fmt::format("{:<18} {:<10} {:<22} {:<15} {:>7} {:>10} {:>9} {:>8} {:>7}\n", "layer", "precision", "algorithm", "math", "ws MiB",
                     "median ms", "min ms", "TFLOP/s", "% peak");
  for (const auto& l : r.layers) {
    if (l.status != 0 || !l.error.empty()) {
      out += fmt::format("{:<18} {:<10} FAILED: {}\n", l.layer, l.precision, l.error);
      continue;
    }
    out += fmt::format("{:<18} {:<10} {:<22} {:<15} {:>7.1f} {:>10.4f} {:>9.4f} {:>8.1f} {:>7}\n", l.layer, l.precision, l.algo, l.math,
                       l.workspace_mib, l.median_ms, l.min_ms, l.tflops, l.pct_of_peak ? fmt::format("{:.0f}%", *l.pct_of_peak) : "-");
  }
  if (!r.fused.attempted) return out;
  const auto& f = r.fused;
  out += "\nfused conv+bias+ReLU (graph API, fp16 NHWC) against the unfused sequence (convolution, add bias, ReLU)\n";
  if (!f.error.empty()) return out + "  not run: " + f.error + "\n";
  out += fmt::format("correctness  {} (max error {:.2g} against a CPU reference){}\n", f.correctness_ok ? "ok" : "WRONG RESULTS",
                     f.correctness_max_error, f.correctness_error.empty() ? "" : ": " + f.correctness_error);
  out += fmt::format("{:<18} {:>9} {:>11} {:>8} {:>8} {:>7} {:>7}\n", "layer", "fused ms", "unfused ms", "speedup", "TFLOP/s", "ws MiB",
                     "config");
  for (const auto& l : f.layers) {
    if (l.status != 0 || !l.error.empty()) {
      out += fmt::format("{:<18} FAILED: {}\n", l.layer, l.error);
      continue;
    }
    out += fmt::format("{:<18} {:>9.4f} {:>11.4f} {:>7.2f}x {:>8.1f} {:>7.1f} {:>7}\n", l.layer, l.fused_ms, l.unfused_ms, l.speedup,
                       l.fused_tflops, l.workspace_mib, fmt::format("#{}/{}", l.engine_config, l.configs_tried));
  }
  return out;
}

CommandRun setup_bench(CLI::App& sub, Io&) {
  auto opts = std::make_shared<BenchOptions>();
  sub.add_option("--cuda-path", opts->cuda_path, "The CUDA toolkit whose cuDNN to use (default: found from the environment)");
  sub.add_flag("--quick", opts->quick, "Only the doctor's four layers");
  sub.add_option("--driver-library", opts->driver_library, "")->group("");
  return [opts](Io& io) -> Result<ExitCode> {
    std::string reason;
    CUDNNCTL_TRY_ASSIGN(auto toolkit, Machine().select_toolkit(opts->cuda_path, std::nullopt, reason));
    const unsigned major = toolkit_cudnn_major(toolkit);
    WorkloadRequest req;
    req.cudnn_library = utf8_of(path_from_utf8(toolkit.runtime_library_dir()) / library_file_name(toolkit.os, "cudnn", major));
    req.major = major;
    req.driver_library = opts->driver_library;
    req.quick = opts->quick;
    req.fused = true;
    CUDNNCTL_TRY_ASSIGN(auto r, run_workload(platform::self_executable(), req, 600000));
    if (!r.error.empty() && r.layers.empty())
      return fail(ErrorCode::workload_not_run, "the GPU workload could not run: " + r.error,
                  "run 'cudnnctl doctor' to see which layer (driver, device, cuDNN) is the cause");
    if (io.json) {
      // the workload's own "error" (a failed layer, text) is "workload_error" here: "error" is the envelope's
      nlohmann::json j = r;
      j["workload_error"] = j["error"];
      j.erase("error");
      io.set_body(std::move(j));
    } else {
      io.out << workload_table(r);
    }
    bool failed = !r.correctness_ok;
    for (const auto& l : r.layers) failed = failed || l.status != 0 || !l.error.empty();
    if (r.fused.attempted) {
      failed = failed || !r.fused.error.empty() || !r.fused.correctness_ok;
      for (const auto& l : r.fused.layers) failed = failed || l.status != 0 || !l.error.empty();
    }
    return failed ? ExitCode::problems_found : ExitCode::ok;
  };
}

CommandRun setup_workload_child(CLI::App& sub, Io&) {
  auto req = std::make_shared<WorkloadRequest>();
  auto full = std::make_shared<bool>(false);
  sub.add_option("--cudnn-library", req->cudnn_library)->required();
  sub.add_option("--major", req->major)->required();
  sub.add_option("--driver-library", req->driver_library);
  sub.add_flag("--full", *full);
  sub.add_flag("--fused", req->fused);
  sub.add_option("--warmup-ms", req->warmup_ms);
  return [req, full](Io& io) -> Result<CommandStatus> {
    req->quick = !*full;
    return ChildExit{run_workload_child(*req, io.out)};
  };
}

} // namespace cudnnctl
