// cudnnctl extract <archive> --to DIR: verify and extract (overlapped) into a new folder, safely.
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/archive/extract_to_folder.hpp"
#include "cudnnctl/commands/archive_options.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/archive_match_json.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/commands/progress.hpp"
#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

namespace {
struct ExtractCommandOptions {
  ArchiveOptions archive;
  std::string to;
  std::string name_encoding;
  unsigned threads = 0;
};
} // namespace

CommandRun setup_extract(CLI::App& sub, Io&) {
  auto opts = std::make_shared<ExtractCommandOptions>();
  add_archive_options(sub, opts->archive);
  sub.add_option("--to", opts->to, "Folder to create (must not exist, or be empty)")->required();
  add_name_encoding_option(sub, opts->name_encoding);
  sub.add_option("--threads", opts->threads, "Inflate with this many threads (default: one per core); for a zip, hashing the archive is one of their jobs");
  return [opts](Io& io) -> Result<ExitCode> {
    CatalogSource catalogs(opts->archive.catalog);
    CUDNNCTL_TRY_ASSIGN(auto prepared, prepare_archive(opts->archive, io, catalogs));
    const auto& p = prepared;
    ExtractOptions eo;
    eo.read.name_encoding = opts->name_encoding;
    eo.threads = opts->threads;
    eo.policy.archive = p.path;
    eo.policy.max_total_size = size_cap(p.catalog_size);
    if (auto n = platform::file_size(p.path)) eo.policy.archive_bytes = *n;
    if (p.name) eo.policy.expected_top = p.name->top_folder();
    // the progress line ends (and is cleared) before anything else is printed
    auto extracted = [&] {
      ProgressLine progress(io, "extracting");
      eo.on_total = progress.total_setter();
      eo.on_bytes = progress.adder();
      auto r = extract_to_new_folder(p.path, p.format, p.expected, opts->archive.allow_unverified, opts->to, eo);
      if (r) progress.finish();
      return r;
    }();
    CUDNNCTL_TRY_ASSIGN(const auto extraction, std::move(extracted));
    const auto& dest = extraction.folder;
    const auto* done = &extraction.result;
    if (!done->verify.matched) io.warn(fmt::format("'{}' is UNVERIFIED: no expected hash is known (--allow-unverified)", p.path));
    const auto& x = done->extract;
    if (io.json) {
      nlohmann::json entries = nlohmann::json::array();
      for (const auto& e : x.listing.entries)
        entries.push_back({{"name", e.name}, {"type", std::string(to_string(e.type))}, {"size", e.size},
                           {"link_target", e.link_target.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.link_target)}});
      nlohmann::json j{{"path", p.path},
                       {"to", dest},
                       {"sha256", done->verify.sha256},
                       {"verified", done->verify.matched.has_value()},
                       {"matched", archive_match_json(done->verify.matched)},
                       {"files", x.files},
                       {"bytes", x.bytes_written},
                       {"entries", entries}};
      io.set_body(j);
    } else {
      io.out << fmt::format("extracted {} files ({} bytes) from {}\n  into     {}\n  sha256   {} ({})\n", x.files, x.bytes_written, p.path,
                            dest, done->verify.sha256,
                            done->verify.matched ? "matches " + done->verify.matched->origin : std::string("UNVERIFIED"));
    }
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
