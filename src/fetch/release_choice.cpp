#include "cudnnctl/fetch/release_choice.hpp"

#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/catalog/catalog.hpp"

namespace cudnnctl {

Result<ReleaseChoice> choose_release(FetchRequest& req, const MachineFacts& facts, const Catalog& catalog, bool force,
                                     std::vector<std::string>& warnings) {
  ReleaseChoice choice;
  choice.facts = facts;
  auto resolved = resolve_release(catalog, req.version, facts);
  if (!resolved && force && resolved.error().code == ErrorCode::no_fitting_release) {
    warnings.push_back(resolved.error().message + " (choosing without the driver and the GPUs: --force)");
    choice.facts.driver_version.clear();
    choice.facts.driver_api_version.reset();
    choice.facts.gpus.clear();
    choice.forced = true;
    resolved = resolve_release(catalog, req.version, choice.facts);
  }
  CUDNNCTL_TRY_ASSIGN(choice.resolution, std::move(resolved));
  req.version = choice.resolution.chosen->version;
  req.cuda = choice.resolution.chosen->cuda_variant;
  CUDNNCTL_TRY_ASSIGN(req.chosen, resolve_fetch(catalog, req));  // the one resolution of the run's request
  return choice;
}

namespace {
nlohmann::json facts_json(const MachineFacts& f) {
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& g : f.gpus) gpus.push_back({{"name", g.name}, {"compute_capability", fmt::format("{}.{}", g.cc_major, g.cc_minor)}});
  return {{"platform", f.platform},
          {"cuda_asked", f.cuda_variant.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.cuda_variant)},
          {"toolkit", f.toolkit ? nlohmann::json{{"root", f.toolkit->root}, {"version", f.toolkit->version}} : nlohmann::json(nullptr)},
          {"driver_version", f.driver_version.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.driver_version)},
          {"driver_cuda", f.driver_api_version ? nlohmann::json(fmt::format("{}.{}", *f.driver_api_version / 1000, *f.driver_api_version % 1000 / 10))
                                               : nlohmann::json(nullptr)},
          {"gpus", gpus}};
}

std::string facts_text(const MachineFacts& f) {
  std::vector<std::string> parts;
  if (!f.cuda_variant.empty()) parts.push_back(fmt::format("CUDA {} asked for", f.cuda_variant));
  parts.push_back(f.toolkit ? fmt::format("toolkit {} (CUDA {})", f.toolkit->root, f.toolkit->version) : "no toolkit");
  if (!f.driver_version.empty())
    parts.push_back("driver " + f.driver_version);
  else if (f.driver_api_version)
    parts.push_back(fmt::format("a driver that runs CUDA up to {}.{}", *f.driver_api_version / 1000, *f.driver_api_version % 1000 / 10));
  else
    parts.push_back("no NVIDIA driver seen");
  for (std::size_t i = 0; i < f.gpus.size(); ++i)
    parts.push_back(fmt::format("GPU {} {} (compute {}.{})", i, f.gpus[i].name, f.gpus[i].cc_major, f.gpus[i].cc_minor));
  return fmt::format("{}", fmt::join(parts, ", "));
}
}  // namespace

nlohmann::json release_choice_json(const ReleaseChoice& choice) {
  const auto& r = choice.resolution;
  nlohmann::json passed = nlohmann::json::array();
  for (const auto& p : r.passed_over)
    passed.push_back(
        {{"filename", p.archive->filename}, {"version", p.archive->version}, {"cuda_variant", p.archive->cuda_variant}, {"reason", p.reason}});
  return {{"request", r.request},
          {"chosen",
           {{"filename", r.chosen->filename},
            {"version", r.chosen->version},
            {"cuda_variant", r.chosen->cuda_variant},
            {"platform", r.chosen->platform}}},
          {"passed_over", passed},
          {"notes", r.notes},
          {"forced", choice.forced},
          {"machine", facts_json(choice.facts)}};
}

void render_release_choice(const ReleaseChoice& choice, std::ostream& out) {
  const auto& r = choice.resolution;
  out << fmt::format("cuDNN {} for {}: {} (cuDNN {}, CUDA {})\n", r.request, choice.facts.platform, r.chosen->filename, r.chosen->version,
                     r.chosen->cuda_variant);
  out << fmt::format("  machine  {}\n", facts_text(choice.facts));
  for (const auto& p : r.passed_over) out << fmt::format("  passed   {}: {}\n", p.archive->filename, p.reason);
  for (const auto& n : r.notes) out << fmt::format("  note     {}\n", n);
  if (choice.forced) out << "  forced   nothing fitted this driver and these GPUs; chosen without them (--force)\n";
}

std::vector<std::string> passed_over_warnings(const ReleaseChoice& choice) {
  std::vector<std::string> out;
  for (const auto& p : choice.resolution.passed_over) out.push_back(fmt::format("passed over {}: {}", p.archive->filename, p.reason));
  if (!choice.resolution.passed_over.empty() || choice.resolution.request != choice.resolution.chosen->version)
    out.push_back(fmt::format("cuDNN {}: chose {}", choice.resolution.request, choice.resolution.chosen->filename));
  return out;
}

}  // namespace cudnnctl
