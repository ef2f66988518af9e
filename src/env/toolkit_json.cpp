#include "cudnnctl/env/toolkit_json.hpp"

#include <nlohmann/json.hpp>

namespace cudnnctl {

nlohmann::json toolkit_json(const Toolkit& toolkit, const std::string& reason) {
  using nlohmann::json;
  const auto or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
  return {{"root", toolkit.root},
          {"version", or_null(toolkit.version)},
          {"version_source", or_null(toolkit.version_source)},
          {"os", std::string(to_string(toolkit.os))},
          {"lib_dir", or_null(toolkit.lib_dir)},
          {"dll_dir", or_null(toolkit.dll_dir)},
          {"include_dir", or_null(toolkit.include_dir)},
          {"found_by", or_null(toolkit.found_by)},
          {"reason", or_null(reason)}};
}

} // namespace cudnnctl
