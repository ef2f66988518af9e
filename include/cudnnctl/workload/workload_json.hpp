#pragma once
// The one JSON mapping of each workload result type, used by the child process (its lines), the
// parent reading them back, and `cudnnctl bench --json`. Empty texts are written as null and read
// from null or a string; an absent field keeps its default.
#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/workload/results.hpp"

namespace cudnnctl {

void to_json(nlohmann::json& j, const DevicePeak& p);
void from_json(const nlohmann::json& j, DevicePeak& p);
void to_json(nlohmann::json& j, const LayerResult& r);
void from_json(const nlohmann::json& j, LayerResult& r);
void to_json(nlohmann::json& j, const FusedLayerResult& r);
void from_json(const nlohmann::json& j, FusedLayerResult& r);
void to_json(nlohmann::json& j, const FusedResult& r);
void from_json(const nlohmann::json& j, FusedResult& r);
void to_json(nlohmann::json& j, const WorkloadResult& r);

} // namespace cudnnctl
