#pragma once
// The one JSON writer of a shadow report (the loader's search order and the cuDNN copies on it): `path` and
// `doctor` both write it, under the key "shadow_scan".
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/env/shadow_scan.hpp"

namespace cudnnctl {

/// {"origin", "order": [{"dir", "via", "local"}], "copies": [{"dir", "via", "file", "major", "version", "wins",
/// "installed", "machine", "other_machine"}], "explanations"}; origin (where the search order was read from, e.g. a
/// Windows PATH export) and local null when not given.
nlohmann::json shadow_report_json(const ShadowReport& report, const std::string& origin = {});

} // namespace cudnnctl
