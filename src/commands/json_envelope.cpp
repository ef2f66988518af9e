#include "cudnnctl/commands/json_envelope.hpp"

#include <array>
#include <utility>

#include <nlohmann/json.hpp>

namespace cudnnctl {

namespace {

// Each document's version: bumped when a field is removed, renamed or retyped (docs/json.md).
// 2: verify and extract name their hash match with the one archive-match object; install, uninstall, path
// and doctor write the one toolkit object; path and doctor the one shadow report (`shadow_scan`).
constexpr std::array<std::pair<std::string_view, int>, 22> k_document_versions{{
    {"inspect", 1},        {"verify", 2},         {"extract", 2},       {"fetch", 1},          {"catalog.list", 1},
    {"catalog.update", 1}, {"install", 2},        {"uninstall", 2},     {"path", 2},           {"doctor", 2},
    {"doctor-checks", 1},  {"gpu-code", 1},       {"explain", 1},       {"trace", 1},          {"bundle.list", 1},
    {"bundle.swap", 1},    {"bundle.unbundle", 1}, {"bundle.restore", 1}, {"bench", 1},        {"catalog", 1},
    {"bundle", 1},         {"doctor-fix", 1},
}};

} // namespace

std::string document_schema(std::string_view command) {
  if (command.empty()) return "cudnnctl/1";
  for (const auto& [name, version] : k_document_versions)
    if (name == command) return "cudnnctl." + std::string(command) + "/" + std::to_string(version);
  return "cudnnctl." + std::string(command) + "/1";
}

nlohmann::json error_json(const Error& e) {
  const auto id = std::string(error_id(e.code));
  return {{"id", id},
          {"message", e.message},
          {"hint", e.hint},
          {"path", e.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.path)},
          {"code", id},
          {"exit_code", to_int(exit_code_for(e.code))}};
}

nlohmann::json json_envelope(const std::string& schema, int exit_code, const std::vector<std::string>& warnings,
                             nlohmann::json body, const Error* error) {
  nlohmann::json doc = body.is_object() ? std::move(body) : nlohmann::json::object();
  doc["schema"] = schema;
  doc["ok"] = exit_code == 0;
  doc["exit_code"] = exit_code;
  doc["warnings"] = warnings;
  if (error) doc["error"] = error_json(*error);
  else doc.erase("error");
  return doc;
}

} // namespace cudnnctl
