#pragma once
// The glibc / libstdc++ floor of an archive's libraries and the cuDNN advisories for its version, as
// `inspect` and `install` show them (text lines and JSON).
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/catalog/advisories.hpp"
#include "cudnnctl/install/library_floor.hpp"

namespace cudnnctl {

nlohmann::json floor_to_json(const LibraryFloorReport& report, const HostSymbolVersions& host);
void print_floor(std::ostream& out, const LibraryFloorReport& report, const HostSymbolVersions& host);

nlohmann::json advisories_to_json(const std::vector<Advisory>& advisories);

} // namespace cudnnctl
