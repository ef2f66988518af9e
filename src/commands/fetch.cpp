// cudnnctl fetch <version>: download a catalog archive (NVIDIA or a mirror) into a cache, verified.
#include <filesystem>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/catalog/release_resolver.hpp"
#include "cudnnctl/catalog/user_catalog.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/contract/version.hpp"
#include "cudnnctl/fetch/catalog_update.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/commands/progress.hpp"
#include "cudnnctl/fetch/release_choice.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/fetch/fetch.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace {
struct FetchOptions {
  FetchRequest req;
  std::string catalog;
  std::string cuda_path;
  std::string driver_library;
  bool dry_run = false;
};
} // namespace

bool names_a_release(const std::string& archive_argument) {
  std::error_code ec;
  return !std::filesystem::exists(path_from_utf8(archive_argument), ec) && is_release_request(archive_argument);
}

// A version no catalog knows: its release's manifest is read into the user catalog first (one small request),
// unless --catalog names the only catalog or --offline forbids the network.
Result<void> learn_unknown_version(const FetchRequest& req, CatalogSource& catalogs, Io& io) {
  if (req.chosen) return {};  // the resolver chose it from the run's catalog: known
  CUDNNCTL_TRY_ASSIGN(const Catalog* catalog, catalogs.get());
  auto known = find_fetch(*catalog, req);
  if (known || catalogs.from_file()) return {};
  const auto version = parse_version(req.version);
  if (!version || version->count < 2) return {};
  if (req.offline) {
    Error e = known.error();
    e.hint = "--offline: no manifest was read; run 'cudnnctl catalog update' (online) to learn newer releases";
    return Unexpected<Error>(e);
  }
  const auto label = version->count == 2 ? req.version + ".0" : version->release_label();
  io.warn(fmt::format("no catalog knows cuDNN {}: reading its release manifest {}", req.version, manifest_url(req.mirror, label)));
  auto learnt = learn_release(label, req.mirror, default_user_catalog_path(), Catalog::embedded());
  if (!learnt) {
    if (const auto code = learnt.error().code;  // a refusal is said as such, not as "unknown version"
        code == ErrorCode::manifest_refused || code == ErrorCode::download_too_large || code == ErrorCode::download_redirects)
      return Unexpected<Error>(learnt.error());
    Error e = known.error();
    e.message += fmt::format(", and its manifest could not be read: {}", learnt.error().message);
    return Unexpected<Error>(e);
  }
  io.warn(fmt::format("learnt cuDNN {} ({} archives) from {} into the user catalog {}", learnt->version, learnt->archives.size(), learnt->url,
                      default_user_catalog_path()));
  catalogs.reload();
  return {};
}

Result<ReleaseChoice> choose_release_for(FetchRequest& req, const MachineFacts& facts, CatalogSource& catalogs, Io& io, bool force) {
  CUDNNCTL_TRY(learn_unknown_version(req, catalogs, io));
  CUDNNCTL_TRY_ASSIGN(const Catalog* catalog, catalogs.get());
  std::vector<std::string> warnings;
  auto choice = choose_release(req, facts, *catalog, force, warnings);
  for (const auto& w : warnings) io.warn(w);
  return choice;
}

Result<FetchOutcome> fetch_for(FetchRequest req, CatalogSource& catalogs, Io& io) {
  CUDNNCTL_TRY(learn_unknown_version(req, catalogs, io));
  CUDNNCTL_TRY_ASSIGN(const Catalog* catalog, catalogs.get());
  if (req.cache_dir.empty()) req.cache_dir = default_cache_dir();
  ProgressLine progress(io, "downloading");
  req.progress = progress.setter();
  auto fetched = fetch_archive(*catalog, req);
  if (fetched && fetched->downloaded) progress.finish();
  return fetched;
}

CommandRun setup_fetch(CLI::App& sub, Io&) {
  auto opts = std::make_shared<FetchOptions>();
  sub.add_option("version", opts->req.version, "cuDNN version: 9.1.0.70, 9.1.0 or 9.1 (the newest build)")->required();
  sub.add_option("--platform", opts->req.platform, "linux-x86_64, linux-sbsa, windows-x86_64, ... (default: this machine)");
  sub.add_option("--cuda", opts->req.cuda, "CUDA major of the build (default: the toolkit's, else the newest)");
  sub.add_option("--mirror", opts->req.mirror, "Base URL holding the same paths as NVIDIA's server (offline sites, CI caches)");
  sub.add_option("--cache", opts->req.cache_dir, "Cache folder (default: ~/.cache/cudnnctl/archives; Windows: %LOCALAPPDATA%\\cudnnctl\\archives)");
  sub.add_option("--catalog", opts->catalog, "Release catalog JSON to use instead of the built-in one");
  sub.add_option("--timeout", opts->req.stall_timeout_s, "Give up when no data arrives for this many seconds (default 60)");
  sub.add_flag("--offline", opts->req.offline, "Never touch the network: the cache's verified copy or an error (no manifest is read)");
  sub.add_option("--connections", opts->req.connections, "HTTP range requests at once (default: adaptive, up to 8; 1 when the server has no ranges)")
      ->check(CLI::Range(1, 32));
  sub.add_option("--cuda-path", opts->cuda_path, "The CUDA toolkit the archive is for (default: found from CUDA_PATH, CUDA_HOME, nvcc, ...)");
  sub.add_option("--driver-library", opts->driver_library,
                 "The NVIDIA driver library asked for the GPUs (default: libcuda.so.1, nvcuda.dll by name)");
  sub.add_flag("--dry-run", opts->dry_run, "Print the archive chosen and why each newer one was passed over; download nothing");
  return [opts](Io& io) -> Result<ExitCode> {
    auto req = opts->req;
    CUDNNCTL_TRY_ASSIGN(const auto facts, Machine(opts->driver_library).release_facts(req.platform, req.cuda, opts->cuda_path));
    CatalogSource catalogs(opts->catalog);
    CUDNNCTL_TRY_ASSIGN(const auto choice, choose_release_for(req, facts, catalogs, io, false));
    if (opts->dry_run) {
      if (io.json)
        io.set_body(nlohmann::json{{"dry_run", true}, {"resolution", release_choice_json(choice)}});
      else
        render_release_choice(choice, io.out);
      return ExitCode::ok;
    }
    for (const auto& w : passed_over_warnings(choice)) io.warn(w);
    CUDNNCTL_TRY_ASSIGN(const auto out, fetch_for(req, catalogs, io));
    if (io.json) {
      io.set_body(nlohmann::json{{"path", out.path},
                                         {"url", out.url},
                                         {"sha256", out.sha256},
                                         {"downloaded", out.downloaded},
                                         {"resumed", out.resumed},
                                         {"bytes", out.bytes},
                                         {"resolution", release_choice_json(choice)}});
    } else {
      io.out << fmt::format("{} {}\n  from    {}\n  sha256  {} (matches the catalog)\n", out.downloaded ? "downloaded" : "cached    ",
                            out.path, out.url, out.sha256);
    }
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
