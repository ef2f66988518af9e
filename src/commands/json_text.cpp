#include "cudnnctl/commands/json_text.hpp"

#include <nlohmann/json.hpp>

namespace cudnnctl {

std::string json_text(const nlohmann::json& j) { return j.dump(2, ' ', true, nlohmann::json::error_handler_t::replace); }

} // namespace cudnnctl
