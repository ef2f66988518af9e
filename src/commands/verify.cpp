// cudnnctl verify <archive>: fail-closed SHA-256 check against --sha256, a checksum file or the catalog.
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/archive/sniff.hpp"
#include "cudnnctl/archive/verify.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/commands/archive_options.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/archive_match_json.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/commands/progress.hpp"
#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

namespace {
struct VerifyOptions {
  ArchiveOptions archive;
};
} // namespace

CommandRun setup_verify(CLI::App& sub, Io&) {
  auto opts = std::make_shared<VerifyOptions>();
  add_archive_options(sub, opts->archive);
  return [opts](Io& io) -> Result<ExitCode> {
    CatalogSource catalogs(opts->archive.catalog);
    CUDNNCTL_TRY_ASSIGN(auto prepared, prepare_archive(opts->archive, io, catalogs));
    const auto& p = prepared;
    CUDNNCTL_TRY(check_is_archive(p.path, p.format));
    CUDNNCTL_TRY_ASSIGN(auto size, platform::file_size(p.path));
    if (p.expected.empty() && !opts->archive.allow_unverified)
      return Unexpected<Error>(no_expected_hash(p.path, ""));
    std::string actual;
    {
      ProgressLine progress(io, "verifying", size);
      CUDNNCTL_TRY_ASSIGN(auto hash, sha256_file(p.path, progress.setter()));
      progress.finish();
      actual = hash;
    }
    CUDNNCTL_TRY_ASSIGN(auto outcome, judge_hash(p.path, size, actual, p.expected, opts->archive.allow_unverified));
    if (!outcome.matched) io.warn(fmt::format("'{}' is UNVERIFIED: no expected hash is known (--allow-unverified)", p.path));
    if (io.json) {
      nlohmann::json j{{"path", p.path},
                       {"size", size},
                       {"sha256", actual},
                       {"verified", outcome.matched.has_value()},
                       {"matched", archive_match_json(outcome.matched)},
                       {"canonical_name", p.name ? nlohmann::json(p.name->canonical) : nlohmann::json(nullptr)}};
      io.set_body(j);
    } else if (outcome.matched) {
      io.out << fmt::format("verified  {}\n  sha256   {}\n  matches  {}\n  size     {}\n", p.path, actual, outcome.matched->origin,
                            size);
    } else {
      io.out << fmt::format("UNVERIFIED  {}\n  sha256     {}\n", p.path, actual);
    }
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
