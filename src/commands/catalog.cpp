// `cudnnctl catalog update|list`: learn new releases from NVIDIA's manifests into the user catalog, and
// show what the catalogs know and where each row comes from (docs/catalog.md).
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/catalog/user_catalog.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/fetch/catalog_update.hpp"

namespace cudnnctl {

namespace {

struct CatalogArgs {
  std::string mirror;
  std::vector<std::string> labels;
  std::string platform;
  int timeout_s = 60;
};

Result<ExitCode> run_catalog_update(const CatalogArgs& a, Io& io) {
  CatalogUpdateRequest req;
  req.mirror = a.mirror;
  req.user_catalog = default_user_catalog_path();
  req.labels = a.labels;
  req.stall_timeout_s = a.timeout_s;
  CUDNNCTL_TRY_ASSIGN(auto out, update_user_catalog(req, Catalog::embedded()));
  if (io.json) {
    nlohmann::json learnt = nlohmann::json::array();
    for (const auto& m : out.learnt)
      learnt.push_back({{"label", m.label}, {"version", m.version}, {"date", m.date}, {"url", m.url}, {"archives", m.archives.size()}});
    io.set_body({{"user_catalog", req.user_catalog},
                         {"listing", out.listing_url.empty() ? nlohmann::json(nullptr) : nlohmann::json(out.listing_url)},
                         {"listed", out.listed},
                         {"already_known", out.already_known},
                         {"learnt", learnt},
                         {"archives_added", out.archives_added},
                         {"written", out.written}});
    return ExitCode::ok;
  }
  if (!out.listing_url.empty())
    io.out << fmt::format("{} lists {} releases; {} known already\n", out.listing_url, out.listed.size(), out.already_known.size());
  for (const auto& m : out.learnt)
    io.out << fmt::format("learnt   cuDNN {} ({}{}): {} archives from {}\n", m.version, m.label, m.date.empty() ? "" : ", " + m.date,
                          m.archives.size(), m.url);
  io.out << (out.written ? fmt::format("user catalog {} updated: {} archives added\n", req.user_catalog, out.archives_added)
                         : fmt::format("user catalog {} unchanged: nothing new\n", req.user_catalog));
  return ExitCode::ok;
}

nlohmann::json row_json(const CatalogArchive& a) {
  const auto& h = a.hashes.front();
  return {{"filename", a.filename},
          {"version", a.version},
          {"platform", a.platform},
          {"cuda_variant", a.cuda_variant},
          {"sha256", h.sha256},
          {"size", h.size ? nlohmann::json(*h.size) : nlohmann::json(nullptr)},
          {"catalog", a.origin.empty() ? "built-in" : "user"},
          {"origin", a.origin.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.origin)},
          {"added", a.added.empty() ? nlohmann::json(nullptr) : nlohmann::json(a.added)}};
}

Result<ExitCode> run_catalog_list(const CatalogArgs& a, Io& io) {
  const auto path = default_user_catalog_path();
  CUDNNCTL_TRY_ASSIGN(auto user, load_user_catalog(path, Catalog::embedded()));
  const auto all = Catalog::layered(Catalog::embedded(), user, "(built in), then " + path);
  std::vector<const CatalogArchive*> rows;
  for (const auto& r : all.archives())
    if (a.platform.empty() || r.platform == a.platform) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [](const CatalogArchive* x, const CatalogArchive* y) {
    if (const int c = compare_dotted(x->version, y->version); c != 0) return c < 0;
    return x->filename < y->filename;
  });
  if (io.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto* r : rows) j.push_back(row_json(*r));
    io.set_body({{"user_catalog", path}, {"user_archives", user.archives().size()}, {"archives", j}});
    return ExitCode::ok;
  }
  for (const auto* r : rows)
    io.out << fmt::format("{:<12} {:<15} cuda{:<5} {}\n", r->version, r->platform, r->cuda_variant,
                          r->origin.empty() ? "built in" : fmt::format("user: {} ({})", r->origin, r->added));
  io.out << fmt::format("{} archives ({} from the user catalog {})\n", rows.size(),
                        std::count_if(rows.begin(), rows.end(), [](const CatalogArchive* r) { return !r->origin.empty(); }), path);
  return ExitCode::ok;
}

} // namespace

CommandRun setup_catalog(CLI::App& sub, Io&) {
  auto a = std::make_shared<CatalogArgs>();
  sub.require_subcommand(1);
  auto* update = sub.add_subcommand("update", "Learn the releases NVIDIA's manifests list that no catalog knows (validated; fail-closed)");
  update->add_option("--mirror", a->mirror, "Base URL holding the same paths as NVIDIA's server (compute/cudnn/redist/...)");
  update->add_option("--label", a->labels, "Read this release's manifest (e.g. 9.19.0) instead of the listing's new ones (repeatable)");
  update->add_option("--timeout", a->timeout_s, "Give up when no data arrives for this many seconds (default 60)");
  auto* list = sub.add_subcommand("list", "Every archive the catalogs know: version, platform, CUDA variant, and where the row comes from");
  list->add_option("--platform", a->platform, "Only this platform (linux-x86_64, linux-sbsa, windows-x86_64, ...)");
  return [a, update](Io& io) -> Result<ExitCode> { return update->parsed() ? run_catalog_update(*a, io) : run_catalog_list(*a, io); };
}

} // namespace cudnnctl
