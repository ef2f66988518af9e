#pragma once
// The one JSON writer of an archive's hash match (verify, extract): {"sha256", "origin"} of the expected hash
// the archive matched, null when it was accepted unverified (--allow-unverified).
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/archive/verify.hpp"

namespace cudnnctl {

nlohmann::json archive_match_json(const std::optional<ExpectedHash>& matched);

} // namespace cudnnctl
