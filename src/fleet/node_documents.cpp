// Reading the doctor --json documents a fleet collected: each file hostile until checked.
#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/fleet/fleet_report.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace {

Unexpected<Error> not_a_document(const std::string& file, const std::string& why) {
  return fail(ErrorCode::input_invalid, fmt::format("'{}' is not a doctor document: {}", file, why),
              "give the files `cudnnctl doctor --json` printed on each node", file);
}

std::string string_or_empty(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Result<std::vector<NodeCheck>> read_checks(const nlohmann::json& doc, const std::string& file) {
  const auto it = doc.find("checks");
  if (it == doc.end() || !it->is_array()) return not_a_document(file, "it has no \"checks\" array");
  std::vector<NodeCheck> out;
  for (const auto& c : *it) {
    if (!c.is_object() || !c.contains("id") || !c["id"].is_string() || !c.contains("status") || !c["status"].is_string())
      return not_a_document(file, "a check has no string \"id\" and \"status\"");
    NodeCheck check{c["id"].get<std::string>(), 0, c["status"].get<std::string>(), string_or_empty(c, "finding")};
    if (c.contains("layer") && c["layer"].is_number_integer()) check.layer = std::clamp(c["layer"].get<int>(), 0, 9);
    static const std::string statuses[] = {"pass", "warn", "fail", "skip"};
    if (std::find(std::begin(statuses), std::end(statuses), check.status) == std::end(statuses))
      return not_a_document(file, fmt::format("check '{}' has the status '{}' (not pass, warn, fail or skip)", terminal_safe(check.id), terminal_safe(check.status)));
    out.push_back(std::move(check));
  }
  return out;
}

} // namespace

Result<NodeDocument> parse_node_document(std::string_view text, const std::string& file) {
  auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return not_a_document(file, "it is not JSON (or not UTF-8)");
  if (!doc.is_object()) return not_a_document(file, "it is not a JSON object");
  const auto schema = string_or_empty(doc, "schema");
  if (!schema.starts_with("cudnnctl.doctor/"))
    return not_a_document(file, schema.empty() ? std::string("it has no \"schema\"") : fmt::format("its schema is '{}'", terminal_safe(schema)));
  NodeDocument node;
  node.file = file;
  node.host = string_or_empty(doc, "host");
  CUDNNCTL_TRY_ASSIGN(node.checks, read_checks(doc, file));
  if (doc.contains("exit_code") && doc["exit_code"].is_number_integer()) node.exit_code = std::clamp(doc["exit_code"].get<int>(), 0, 255);
  if (doc.contains("toolkit") && doc["toolkit"].is_object()) node.toolkit = string_or_empty(doc["toolkit"], "root");
  if (doc.contains("cudnn") && doc["cudnn"].is_object()) {
    const auto& c = doc["cudnn"];
    if (auto v = string_or_empty(c, "version"); !v.empty()) node.cudnn = v;
    node.cuda_major = string_or_empty(c, "cuda_major");
  }
  return node;
}

Result<CollectedDocuments> collect_node_documents(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    const auto st = fs::status(path_from_utf8(p), ec);
    if (!fs::exists(st))
      return Unexpected<Error>(platform::missing_file_error(p, "", "name doctor documents (files) or folders holding them"));
    if (!fs::is_directory(st)) {
      files.push_back(p);
      continue;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(path_from_utf8(p), ec), end; !ec && it != end; it.increment(ec)) {
      const auto name = utf8_of(it->path().filename());
      if (name.ends_with(".json") && !name.starts_with(".")) found.push_back(utf8_of(it->path()));
      if (found.size() > k_node_documents_max) break;
    }
    if (ec) return fail(ErrorCode::io, fmt::format("cannot list the folder '{}': {}", p, ec.message()), "check its permissions", p);
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  if (files.size() > k_node_documents_max)
    return fail(ErrorCode::input_invalid, fmt::format("{} files to read; a report reads at most {}", files.size(), k_node_documents_max),
                "split the fleet into folders and report on each");
  CollectedDocuments out;
  for (const auto& f : files) {
    auto text = platform::read_input_file(f, "a doctor document", k_node_document_max);
    auto node = text ? parse_node_document(*text, f) : Result<NodeDocument>(Unexpected<Error>(text.error()));
    if (node) out.nodes.push_back(std::move(*node));
    else out.unreadable.push_back({f, node.error().message});
  }
  return out;
}

} // namespace cudnnctl
