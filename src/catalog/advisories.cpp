#include "cudnnctl/catalog/advisories.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace cudnnctl::embedded {
std::string_view advisories_json();  // data/cudnn-advisories.json, embedded by CMake
}

namespace cudnnctl {

namespace {

Version release_of(const Version& v) {
  Version r = v;
  r.parts[3] = 0;
  r.count = 3;
  return r;
}

Result<Advisory> parse_row(const nlohmann::json& row, const std::string& origin, std::size_t index) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::catalog_invalid, fmt::format("{}: advisory #{} {}", origin, index, why),
                "fix the advisory table (data/cudnn-advisories.json) and rebuild", origin);
  };
  if (!row.is_object()) return bad("is not an object");
  auto text = [&](const char* key) { return row.contains(key) && row[key].is_string() ? row[key].get<std::string>() : std::string(); };
  Advisory a;
  a.id = text("id");
  a.fixed_in = text("fixed_in");
  a.fixed_in_note = text("fixed_in_note");
  a.symptom = text("symptom");
  a.affected = text("affected");
  a.workaround = text("workaround");
  if (a.id.empty() || a.symptom.empty() || a.affected.empty()) return bad("needs an id, a symptom and what it affects");
  auto from = parse_version(text("from"));
  auto before = parse_version(text("before"));
  if (!from || !before) return bad(fmt::format("('{}') needs versions in 'from' and 'before'", a.id));
  a.from = release_of(*from);
  a.before = release_of(*before);
  if (!(a.from < a.before)) return bad(fmt::format("('{}') has an empty range", a.id));
  if (row.contains("sources") && row["sources"].is_array())
    for (const auto& s : row["sources"])
      if (s.is_string() && s.get<std::string>().rfind("https://", 0) == 0) a.sources.push_back(s.get<std::string>());
  if (a.sources.empty()) return bad(fmt::format("('{}') has no https source", a.id));
  return a;
}

} // namespace

Result<std::vector<Advisory>> parse_advisories(std::string_view json_text, const std::string& origin) {
  const auto doc = nlohmann::json::parse(json_text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("advisories") || !doc["advisories"].is_array())
    return fail(ErrorCode::catalog_invalid, fmt::format("{} is not an advisory table (no 'advisories' list)", origin),
                "fix the advisory table (data/cudnn-advisories.json) and rebuild", origin);
  std::vector<Advisory> out;
  for (std::size_t i = 0; i < doc["advisories"].size(); ++i) {
    CUDNNCTL_TRY_ASSIGN(auto a, parse_row(doc["advisories"][i], origin, i));
    out.push_back(std::move(a));
  }
  return out;
}

const std::vector<Advisory>& builtin_advisories() {
  static const std::vector<Advisory> table = [] {
    auto parsed = parse_advisories(embedded::advisories_json(), "built-in advisory table");
    return parsed ? std::move(*parsed) : std::vector<Advisory>{};  // tests/catalog checks that it parses
  }();
  return table;
}

std::vector<Advisory> advisories_for(const Version& v, const std::vector<Advisory>& table) {
  std::vector<Advisory> out;
  if (v.count < 2) return out;  // "v7" names no release precisely enough
  const Version r = release_of(v);
  for (const auto& a : table)
    if (a.from <= r && r < a.before) out.push_back(a);
  return out;
}

std::string advisory_warning(const Version& v, const Advisory& a) {
  return fmt::format("cuDNN {} is in a known-bad range ({} up to {}): {} ({}); fixed in {}: {} [{}]", v.release_label(),
                     a.from.release_label(), a.before.release_label(), a.symptom, a.affected,
                     a.fixed_in.empty() ? std::string("no release yet") : a.fixed_in, a.workaround, a.sources.front());
}

} // namespace cudnnctl
