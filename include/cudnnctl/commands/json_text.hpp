#pragma once
// The one way a JSON document is printed. Output is always valid JSON and pure ASCII: non-ASCII text is
// escaped as \uXXXX, and a byte that is not valid UTF-8 (a file name, a path or a checksum file in another
// encoding) becomes U+FFFD (the Unicode replacement character). docs/exit-codes.md documents the rule.
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace cudnnctl {

std::string json_text(const nlohmann::json& j);

} // namespace cudnnctl
