#pragma once
// Renders a version contract as a table for people and as JSON for machines.
#include <iosfwd>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/catalog/version_contract.hpp"

namespace cudnnctl {

nlohmann::json contract_to_json(const VersionContract& c);
void print_contract(std::ostream& out, const VersionContract& c);

} // namespace cudnnctl
