#include "cudnnctl/workload/workload_json.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace cudnnctl {

namespace {
nlohmann::json text_or_null(const std::string& s) { return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s); }

std::string text_of(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

template <class T> void read(const nlohmann::json& j, const char* key, T& out) {
  if (const auto it = j.find(key); it != j.end() && !it->is_null()) out = it->get<T>();
}
} // namespace

void to_json(nlohmann::json& j, const DevicePeak& p) {
  j = {{"fp16_dense_tflops", p.fp16_dense_tflops}, {"fp32_tflops", p.fp32_tflops}, {"source", p.source}};
}

void from_json(const nlohmann::json& j, DevicePeak& p) {
  read(j, "fp16_dense_tflops", p.fp16_dense_tflops);
  read(j, "fp32_tflops", p.fp32_tflops);
  p.source = text_of(j, "source");
}

void to_json(nlohmann::json& j, const LayerResult& r) {
  j = {{"layer", r.layer},       {"precision", r.precision},
       {"algo", r.algo},         {"math", r.math},
       {"workspace_mib", r.workspace_mib}, {"median_ms", r.median_ms},
       {"min_ms", r.min_ms},     {"tflops", r.tflops},
       {"pct_of_peak", r.pct_of_peak ? nlohmann::json(*r.pct_of_peak) : nlohmann::json(nullptr)},
       {"status", r.status},     {"error", text_or_null(r.error)}};
}

void from_json(const nlohmann::json& j, LayerResult& r) {
  r.layer = text_of(j, "layer");
  r.precision = text_of(j, "precision");
  r.algo = text_of(j, "algo");
  r.math = text_of(j, "math");
  read(j, "workspace_mib", r.workspace_mib);
  read(j, "median_ms", r.median_ms);
  read(j, "min_ms", r.min_ms);
  read(j, "tflops", r.tflops);
  if (const auto it = j.find("pct_of_peak"); it != j.end() && it->is_number()) r.pct_of_peak = it->get<double>();
  read(j, "status", r.status);
  r.error = text_of(j, "error");
}

void to_json(nlohmann::json& j, const FusedLayerResult& r) {
  j = {{"layer", r.layer},           {"fused_ms", r.fused_ms},         {"fused_min_ms", r.fused_min_ms},
       {"unfused_ms", r.unfused_ms}, {"unfused_min_ms", r.unfused_min_ms}, {"fused_tflops", r.fused_tflops},
       {"speedup", r.speedup},       {"workspace_mib", r.workspace_mib}, {"engine_config", r.engine_config},
       {"configs_tried", r.configs_tried}, {"status", r.status},       {"error", text_or_null(r.error)}};
}

void from_json(const nlohmann::json& j, FusedLayerResult& r) {
  r.layer = text_of(j, "layer");
  read(j, "fused_ms", r.fused_ms);
  read(j, "fused_min_ms", r.fused_min_ms);
  read(j, "unfused_ms", r.unfused_ms);
  read(j, "unfused_min_ms", r.unfused_min_ms);
  read(j, "fused_tflops", r.fused_tflops);
  read(j, "speedup", r.speedup);
  read(j, "workspace_mib", r.workspace_mib);
  read(j, "engine_config", r.engine_config);
  read(j, "configs_tried", r.configs_tried);
  read(j, "status", r.status);
  r.error = text_of(j, "error");
}

void to_json(nlohmann::json& j, const FusedResult& r) {
  j = {{"correctness", {{"ok", r.correctness_ok}, {"max_error", r.correctness_max_error}, {"error", text_or_null(r.correctness_error)}}},
       {"layers", r.layers},
       {"error", text_or_null(r.error)}};
}

void from_json(const nlohmann::json& j, FusedResult& r) {
  r.attempted = true;
  if (const auto c = j.find("correctness"); c != j.end() && c->is_object()) {
    read(*c, "ok", r.correctness_ok);
    read(*c, "max_error", r.correctness_max_error);
    r.correctness_error = text_of(*c, "error");
  }
  read(j, "layers", r.layers);
  r.error = text_of(j, "error");
}

void to_json(nlohmann::json& j, const WorkloadResult& r) {
  j = {{"device", r.device},
       {"compute_capability", fmt::format("{}.{}", r.cc_major, r.cc_minor)},
       {"peak", r.peak ? nlohmann::json(*r.peak) : nlohmann::json(nullptr)},
       {"correctness", {{"ok", r.correctness_ok}, {"max_error", r.correctness_max_error}}},
       {"layers", r.layers},
       {"fused", r.fused.attempted ? nlohmann::json(r.fused) : nlohmann::json(nullptr)},
       {"error", text_or_null(r.error)},
       {"wall_ms", r.wall_ms},
       {"completed", r.completed}};
}

} // namespace cudnnctl
