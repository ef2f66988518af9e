// cudnnctl fetch <version>: download a catalog archive (NVIDIA or a mirror) into a cache, verified.
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/commands/progress.hpp"
#include "cudnnctl/commands/toolkit_options.hpp"
#include "cudnnctl/fetch/fetch.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace {
struct FetchOptions {
  FetchRequest req;
  std::string catalog;
};
} // namespace

std::string host_platform_name(Os os) {
  const auto host = platform::detect_host();
  // another OS's archive is for its usual architecture: x86_64 (Windows on ARM64 only from an ARM64 host)
  if (os == Os::windows) return archive_platform_name(os, host.arch == Arch::arm64 ? Arch::arm64 : Arch::x86_64);
  return archive_platform_name(os, host.os == Os::linux_os ? host.arch : Arch::x86_64);
}

Result<FetchOutcome> fetch_for(FetchRequest req, CatalogSource& catalogs, Io& io) {
  auto catalog = catalogs.get();
  if (!catalog) return Unexpected<Error>(catalog.error());
  if (req.cache_dir.empty()) req.cache_dir = default_cache_dir();
  ProgressLine progress(io, "downloading");
  req.progress = progress.setter();
  auto fetched = fetch_archive(**catalog, req);
  if (fetched && fetched->downloaded) progress.finish();
  return fetched;
}

CommandRun setup_fetch(CLI::App& sub, Io& shared_io) {
  auto opts = std::make_shared<FetchOptions>();
  sub.add_option("version", opts->req.version, "cuDNN version: 9.1.0.70, 9.1.0 or 9.1 (the newest build)")->required();
  sub.add_option("--platform", opts->req.platform, "linux-x86_64, linux-sbsa, windows-x86_64, ... (default: this machine)");
  sub.add_option("--cuda", opts->req.cuda, "CUDA major of the build (default: the toolkit's, else the newest)");
  sub.add_option("--mirror", opts->req.mirror, "Base URL holding the same paths as NVIDIA's server (offline sites, CI caches)");
  sub.add_option("--cache", opts->req.cache_dir, "Cache folder (default: ~/.cache/cudnnctl/archives; Windows: %LOCALAPPDATA%\\cudnnctl\\archives)");
  sub.add_option("--catalog", opts->catalog, "Release catalog JSON to use instead of the built-in one");
  sub.add_option("--timeout", opts->req.stall_timeout_s, "Give up when no data arrives for this many seconds (default 60)");
  sub.add_flag("--json", shared_io.json, "Print one JSON document");
  return [opts](Io& io) -> Result<ExitCode> {
    auto req = opts->req;
    if (req.platform.empty()) req.platform = host_platform_name(platform::detect_host().os);
    if (req.cuda.empty()) {
      std::string reason;
      if (auto t = select_toolkit("", std::nullopt, reason); t && !t->major().empty()) req.cuda = t->major();
    }
    CatalogSource catalogs(opts->catalog);
    auto out = fetch_for(req, catalogs, io);
    if (!out) return Unexpected<Error>(out.error());
    if (io.json) {
      io.out << json_text(nlohmann::json{{"ok", true}, {"path", out->path}, {"url", out->url}, {"sha256", out->sha256}, {"downloaded", out->downloaded},
                               {"resumed", out->resumed}, {"bytes", out->bytes}}) << "\n";
    } else {
      io.out << fmt::format("{} {}\n  from    {}\n  sha256  {} (matches the catalog)\n", out->downloaded ? "downloaded" : "cached    ",
                            out->path, out->url, out->sha256);
    }
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
