#include "cudnnctl/commands/archive_match_json.hpp"

#include <nlohmann/json.hpp>

namespace cudnnctl {

nlohmann::json archive_match_json(const std::optional<ExpectedHash>& matched) {
  if (!matched) return nullptr;
  return {{"sha256", matched->sha256}, {"origin", matched->origin}};
}

} // namespace cudnnctl
