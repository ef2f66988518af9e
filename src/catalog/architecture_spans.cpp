#include "cudnnctl/catalog/architecture_spans.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/catalog/data_table.hpp"

namespace cudnnctl::embedded {
std::string_view architecture_spans_json();  // data/gpu-architecture-spans.json, embedded by CMake
}

namespace cudnnctl {

namespace {

bool dotted_numbers(const std::string& s, std::size_t min_parts, std::size_t max_parts) {
  if (s.empty() || s.size() > 24 || s.front() == '.' || s.back() == '.' || s.find("..") != std::string::npos) return false;
  if (!std::all_of(s.begin(), s.end(), [](char c) { return c == '.' || (c >= '0' && c <= '9'); })) return false;
  const auto parts = static_cast<std::size_t>(std::count(s.begin(), s.end(), '.')) + 1;
  return parts >= min_parts && parts <= max_parts;
}

constexpr DataTable k_span_table{"architecture span table", "architecture span", "spans", "data/gpu-architecture-spans.json"};

Result<ArchitectureSpan> parse_span(const nlohmann::json& row, const TableRowError& bad, const std::vector<ArchitectureSpan>&) {
  const auto text = [&](const char* key) { return row_text(row, key); };
  const auto texts = [&](const char* key, std::vector<std::string>& out) { return row_texts(row, key, out); };
  ArchitectureSpan s;
  s.family = text("family");
  s.first_release = text("first_release");
  s.last_release = text("last_release");
  if (s.family.empty()) return bad("has no family");
  if (!texts("compute_capabilities", s.capabilities) || s.capabilities.empty() ||
      !std::all_of(s.capabilities.begin(), s.capabilities.end(), [](const std::string& c) { return dotted_numbers(c, 2, 2); }))
    return bad(fmt::format("({}) needs a list of major.minor compute capabilities", s.family));
  if (s.first_release.empty() && s.last_release.empty()) return bad(fmt::format("({}) names neither a first nor a last release", s.family));
  for (const auto* r : {&s.first_release, &s.last_release})
    if (!r->empty() && !dotted_numbers(*r, 3, 3)) return bad(fmt::format("({}) has a release that is not X.Y.Z ('{}')", s.family, *r));
  if (!texts("cuda_variants", s.cuda_variants) || !texts("sources", s.sources) || s.sources.empty())
    return bad(fmt::format("({}) needs its sources (and a list of CUDA variants, if any)", s.family));
  return s;
}

} // namespace

Result<std::vector<ArchitectureSpan>> parse_architecture_spans(std::string_view json_text, const std::string& origin) {
  return read_table_rows(json_text, origin, k_span_table, parse_span);
}

const std::vector<ArchitectureSpan>& builtin_architecture_spans() {
  return builtin_table_rows(k_span_table, embedded::architecture_spans_json(), parse_span);
}

std::optional<std::string> architecture_span_reason(std::string_view release, std::string_view cuda_variant, unsigned cc_major, unsigned cc_minor,
                                                    const std::vector<ArchitectureSpan>& table) {
  const auto cc = fmt::format("{}.{}", cc_major, cc_minor);
  const std::string rel(release);
  for (const auto& s : table) {
    if (std::find(s.capabilities.begin(), s.capabilities.end(), cc) == s.capabilities.end()) continue;
    if (!s.first_release.empty() && compare_dotted(rel, s.first_release) < 0)
      return fmt::format("cuDNN {} predates {} support (compute {}): it came with cuDNN {}", rel, s.family, cc, s.first_release);
    if (!s.last_release.empty() && compare_dotted(rel, s.last_release) > 0)
      return fmt::format("cuDNN {} has no code for {} GPUs (compute {}): the last release for them is {}", rel, s.family, cc, s.last_release);
    if (!s.cuda_variants.empty() && std::find(s.cuda_variants.begin(), s.cuda_variants.end(), cuda_variant) == s.cuda_variants.end())
      return fmt::format("the CUDA {} build of cuDNN {} has no {} code (compute {}): only its CUDA {} builds do", cuda_variant, rel, s.family, cc,
                         fmt::join(s.cuda_variants, "/"));
  }
  return std::nullopt;
}

std::optional<std::string> architecture_span_advice(unsigned cc_major, unsigned cc_minor, const std::vector<ArchitectureSpan>& table) {
  const auto cc = fmt::format("{}.{}", cc_major, cc_minor);
  std::vector<std::string> needs;
  for (const auto& s : table) {
    if (std::find(s.capabilities.begin(), s.capabilities.end(), cc) == s.capabilities.end()) continue;
    if (!s.first_release.empty()) needs.push_back(fmt::format("cuDNN {} or newer", s.first_release));
    if (!s.last_release.empty()) needs.push_back(fmt::format("cuDNN {} or older", s.last_release));
    if (!s.cuda_variants.empty()) needs.push_back(fmt::format("a CUDA {} build", fmt::join(s.cuda_variants, "/")));
    return fmt::format("{} GPUs (compute {}) need {}", s.family, cc, fmt::join(needs, " in "));
  }
  return std::nullopt;
}

} // namespace cudnnctl
