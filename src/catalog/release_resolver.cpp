#include "cudnnctl/catalog/release_resolver.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/catalog/architecture_spans.hpp"
#include "cudnnctl/catalog/driver_floors.hpp"

namespace cudnnctl {

namespace {

bool request_admits(const std::string& version, std::string_view request) {
  if (request == "latest") return true;
  return version == request || (version.size() > request.size() && version.starts_with(request) && version[request.size()] == '.');
}

// "9.19.0.56" -> "9.19.0": the support rows' key
std::string release_label_of(const std::string& version) {
  std::size_t pos = 0;
  for (int dots = 0; dots < 3; ++dots) {
    pos = version.find('.', pos);
    if (pos == std::string::npos) return version;
    if (dots < 2) ++pos;
  }
  return version.substr(0, pos);
}

std::string toolkit_major(const ToolkitFact& tk) { return tk.version.substr(0, tk.version.find('.')); }

std::string driver_api_text(int api) { return fmt::format("{}.{}", api / 1000, api % 1000 / 10); }

// The driver against the variant's CUDA: the CUDA version its API reports where known (what the loaded libcuda runs,
// cuda-compat included), else its version against the variant's floor (driver-floors.json). Empty: it runs it.
std::string driver_floor_reason(const CatalogArchive& a, const MachineFacts& f) {
  const auto major = parse_uint_or(a.cuda_variant, 0);
  if (major == 0) return {};
  const auto floor = driver_floor_for(major, std::nullopt, f.os);
  if (f.driver_api_version) {
    if (*f.driver_api_version / 1000 >= static_cast<int>(major)) return {};
    return fmt::format("needs a driver that runs CUDA {}{}; this machine's driver{} runs CUDA up to {}", a.cuda_variant,
                       floor ? fmt::format(" (>= {})", *floor) : std::string(), f.driver_version.empty() ? std::string() : " " + f.driver_version,
                       driver_api_text(*f.driver_api_version));
  }
  if (f.driver_version.empty() || !driver_below_floor(f.driver_version, major, std::nullopt, f.os)) return {};
  return fmt::format("needs driver >= {} (CUDA {}); this machine has {}", floor.value_or("?"), a.cuda_variant, f.driver_version);
}

std::string variant_reason(const CatalogArchive& a, const MachineFacts& f) {
  if (!f.cuda_variant.empty())
    return a.cuda_variant == f.cuda_variant ? std::string() : fmt::format("for CUDA {}; CUDA {} was asked for", a.cuda_variant, f.cuda_variant);
  if (f.toolkit && !f.toolkit->version.empty() && a.cuda_variant != toolkit_major(*f.toolkit))
    return fmt::format("for CUDA {}; the toolkit at {} is CUDA {}", a.cuda_variant, f.toolkit->root, f.toolkit->version);
  return {};
}

// A support row lists a compute capability for a GPU when it names the GPU's own, or an older minor of the same
// major (SASS built for X.Y runs on X.Z, Z >= Y).
bool row_lists_gpu(const SupportRow& row, const MachineGpu& g) {
  return std::any_of(row.compute_capabilities.begin(), row.compute_capabilities.end(), [&](const std::string& cc) {
    const auto dot = cc.find('.');
    if (dot == std::string::npos) return false;
    return parse_uint_or(cc.substr(0, dot), 0) == g.cc_major && parse_uint_or(cc.substr(dot + 1), 99) <= g.cc_minor;
  });
}

// A row lists the toolkit when it names its major.minor (as install's compatibility check asks: a newer minor the
// matrix predates is not assumed to work).
bool row_lists_toolkit(const std::vector<std::string>& tks, const std::string& version) {
  return tks.empty() || std::find(tks.begin(), tks.end(), version) != tks.end();
}

struct RowVerdict {
  int stage = 3;       // how far the row got: 0 toolkit, 1 driver, 2 GPUs, 3 fits
  std::string reason;  // empty: fits
};

RowVerdict judge_row(const SupportRow& row, const std::string& label, const MachineFacts& f) {
  const auto& tks = row.cuda_toolkits;
  if (f.toolkit && !f.toolkit->version.empty() && !row_lists_toolkit(tks, f.toolkit->version))
    return {0, fmt::format("support matrix lists CUDA {} for cuDNN {} (CUDA {}); the toolkit at {} is CUDA {}",
                           tks.size() == 1 ? tks.front() : tks.front() + " to " + tks.back(), label, row.cuda_variant, f.toolkit->root,
                           f.toolkit->version)};
  const auto& min = f.os == Os::windows ? row.min_driver_windows : row.min_driver_linux;
  if (!min.empty() && !f.driver_version.empty() && compare_dotted(f.driver_version, min) < 0)
    return {1, fmt::format("support matrix needs driver >= {} for cuDNN {} (CUDA {}{}); this machine has {}", min, label, row.cuda_variant,
                           tks.empty() ? "" : " " + tks.front() + " to " + tks.back(), f.driver_version)};
  std::vector<std::string> missing;
  if (!row.compute_capabilities.empty())
    for (std::size_t i = 0; i < f.gpus.size(); ++i)
      if (!row_lists_gpu(row, f.gpus[i]))
        missing.push_back(fmt::format("sm_{}{} (GPU {}: {})", f.gpus[i].cc_major, f.gpus[i].cc_minor, i, f.gpus[i].name));
  if (!missing.empty()) return {2, fmt::format("support matrix lists no {}", fmt::join(missing, ", no "))};
  return {};
}

// The support rows of a release and variant; none for a patch release (9.17.1): those of the newest earlier patch of
// the same major.minor (9.17.0), whose label goes to `stand_in`.
std::vector<const SupportRow*> rows_for(const Catalog& catalog, const std::string& label, const std::string& variant, std::string& stand_in) {
  auto rows = catalog.support_for(label, variant);
  if (!rows.empty()) return rows;
  const auto minor_prefix = label.substr(0, label.rfind('.') + 1);  // "9.17."
  for (const auto& r : catalog.support())
    if (r.cuda_variant == variant && r.release.starts_with(minor_prefix) && compare_dotted(r.release, label) < 0 &&
        (stand_in.empty() || compare_dotted(r.release, stand_in) > 0))
      stand_in = r.release;
  return stand_in.empty() ? rows : catalog.support_for(stand_in, variant);
}

// The support rows of the archive's release and variant: one that fits is enough; else the reason of the row
// that got furthest. No rows: nothing known (a note for the chosen one).
std::string support_reason(const Catalog& catalog, const CatalogArchive& a, const MachineFacts& f, std::vector<std::string>& notes) {
  const auto label = release_label_of(a.version);
  std::string stand_in;
  const auto rows = rows_for(catalog, label, a.cuda_variant, stand_in);
  if (rows.empty()) {
    // no row: what the sourced architecture spans say about each GPU (data/gpu-architecture-spans.json)
    std::vector<std::string> gaps;
    for (std::size_t i = 0; i < f.gpus.size(); ++i)
      if (auto why = architecture_span_reason(label, a.cuda_variant, f.gpus[i].cc_major, f.gpus[i].cc_minor))
        gaps.push_back(fmt::format("GPU {} {}: {}", i, f.gpus[i].name, *why));
    if (!gaps.empty()) return fmt::format("{}", fmt::join(gaps, "; "));
    notes.push_back(
        fmt::format("the catalog has no support row for cuDNN {} (CUDA {}): its GPU code is checked on the staged libraries after download", label,
                    a.cuda_variant));
    return {};
  }
  RowVerdict best{-1, {}};
  for (const auto* row : rows) {
    auto v = judge_row(*row, row->release, f);
    if (v.reason.empty()) {
      if (!stand_in.empty())
        notes.push_back(fmt::format("the support row of cuDNN {} (CUDA {}) stands for its patch release {}", stand_in, a.cuda_variant, label));
      return {};
    }
    if (v.stage > best.stage) best = std::move(v);
  }
  return stand_in.empty() ? best.reason : best.reason + fmt::format(" (the row of {} stands for its patch release {})", stand_in, label);
}

std::vector<const CatalogArchive*> candidates_of(const Catalog& catalog, std::string_view request, const std::string& platform) {
  std::vector<const CatalogArchive*> out;
  for (const auto& a : catalog.archives())
    if (a.platform == platform && request_admits(a.version, request)) out.push_back(&a);
  std::stable_sort(out.begin(), out.end(), [](const CatalogArchive* x, const CatalogArchive* y) {
    if (const int c = compare_dotted(x->version, y->version); c != 0) return c > 0;
    return compare_dotted(x->cuda_variant, y->cuda_variant) > 0;
  });
  return out;
}

Unexpected<Error> nothing_fits(std::string_view request, const MachineFacts& f, const std::vector<PassedOver>& passed) {
  constexpr std::size_t k_shown = 8;
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < passed.size() && i < k_shown; ++i) lines.push_back(passed[i].archive->filename + ": " + passed[i].reason);
  if (passed.size() > k_shown) lines.push_back(fmt::format("and {} more", passed.size() - k_shown));
  return fail(ErrorCode::no_fitting_release,
              fmt::format("no cuDNN {} archive for {} in the catalog fits this machine: {}", request, f.platform, fmt::join(lines, "; ")),
              "--dry-run lists every candidate and why it was passed over; a toolkit of another CUDA major (--cuda-path), a newer "
              "NVIDIA driver, or an older request (e.g. 9.10) may fit; install --force chooses without the driver and the GPUs");
}

}  // namespace

bool is_release_request(std::string_view request) {
  static const std::regex re(R"(^\d{1,4}(\.\d{1,6}){0,3}$)");
  return request == "latest" || std::regex_match(request.begin(), request.end(), re);
}

Result<Resolution> resolve_release(const Catalog& catalog, std::string_view request, const MachineFacts& facts) {
  if (!is_release_request(request))
    return fail(ErrorCode::usage, fmt::format("'{}' is not a cuDNN release request", request),
                "give latest, a major (9), a release (9.19, 9.19.0) or a build (9.19.0.56)");
  const auto candidates = candidates_of(catalog, request, facts.platform);
  if (candidates.empty())
    return fail(ErrorCode::file_not_found, fmt::format("the catalog has no cuDNN {} archive for {}", request, facts.platform),
                "check the version and --platform; 'cudnnctl catalog list' shows what is known, and 'cudnnctl catalog update' "
                "learns newer releases");
  Resolution out;
  out.request = std::string(request);
  for (const auto* a : candidates) {
    auto reason = variant_reason(*a, facts);
    if (reason.empty()) reason = driver_floor_reason(*a, facts);
    if (reason.empty()) reason = support_reason(catalog, *a, facts, out.notes);
    if (reason.empty()) {
      out.chosen = a;
      return out;
    }
    out.passed_over.push_back({a, std::move(reason)});
  }
  return nothing_fits(request, facts, out.passed_over);
}

}  // namespace cudnnctl
