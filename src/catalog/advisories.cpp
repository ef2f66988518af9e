#include "cudnnctl/catalog/advisories.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/catalog/data_table.hpp"

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

constexpr DataTable k_advisory_table{"advisory table", "advisory", "advisories", "data/cudnn-advisories.json"};

Result<Advisory> parse_row(const nlohmann::json& row, const TableRowError& bad, const std::vector<Advisory>&) {
  const auto text = [&](const char* key) { return row_text(row, key); };
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
  std::vector<std::string> sources;
  if (row_texts(row, "sources", sources))
    for (auto& s : sources)
      if (s.starts_with("https://")) a.sources.push_back(std::move(s));
  if (a.sources.empty()) return bad(fmt::format("('{}') has no https source", a.id));
  return a;
}

} // namespace

Result<std::vector<Advisory>> parse_advisories(std::string_view json_text, const std::string& origin) {
  return read_table_rows(json_text, origin, k_advisory_table, parse_row);
}

const std::vector<Advisory>& builtin_advisories() { return builtin_table_rows(k_advisory_table, embedded::advisories_json(), parse_row); }

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
