// cudnnctl extract <archive> --to DIR: verify and extract (overlapped) into a new folder, safely.
#include <filesystem>
#include <memory>
#include <ostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/archive/verified_extract.hpp"
#include "cudnnctl/commands/archive_options.hpp"
#include "cudnnctl/commands/commands.hpp"
#include "cudnnctl/commands/json_text.hpp"
#include "cudnnctl/commands/progress.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace {
struct ExtractCommandOptions {
  ArchiveOptions archive;
  std::string to;
  std::string name_encoding;
  unsigned threads = 0;
};
} // namespace

CommandRun setup_extract(CLI::App& sub, Io& shared_io) {
  auto opts = std::make_shared<ExtractCommandOptions>();
  add_archive_options(sub, opts->archive, shared_io);
  sub.add_option("--to", opts->to, "Folder to create (must not exist, or be empty)")->required();
  sub.add_option("--name-encoding", opts->name_encoding, "Encoding of member names for archives re-packed by legacy tools (CP437, GBK, ...)");
  sub.add_option("--threads", opts->threads, "Inflate with this many threads (default: one per core)");
  return [opts](Io& io) -> Result<ExitCode> {
    auto prepared = prepare_archive(opts->archive, io);
    if (!prepared) return Unexpected<Error>(prepared.error());
    const auto& p = *prepared;
    namespace fs = std::filesystem;
    std::error_code ec;
    // the folder it goes in is resolved through links (a linked parent): staging and the extraction
    // below it never follow one
    fs::path dest = fs::absolute(path_from_utf8(opts->to), ec).lexically_normal();
    if (dest.filename().empty()) dest = dest.parent_path();
    if (const auto parent = fs::weakly_canonical(dest.parent_path(), ec); !ec) dest = parent / dest.filename();
    if (fs::exists(fs::symlink_status(dest, ec)) && !(fs::is_directory(dest, ec) && fs::is_empty(dest, ec)))
      return fail(ErrorCode::io, fmt::format("'{}' already exists and is not an empty folder", opts->to),
                  "choose a new folder with --to; cudnnctl never extracts over existing files", opts->to);
    const std::string staging = utf8_of(dest) + ".cudnnctl-staging-" + platform::unique_id();
    platform::remove_tree(staging);
    if (auto ok = platform::make_directories(staging); !ok) return Unexpected<Error>(ok.error());

    ExtractOptions eo;
    eo.read.name_encoding = opts->name_encoding;
    eo.threads = opts->threads;
    eo.policy.archive = p.path;
    eo.policy.max_total_size = size_cap(p.catalog_size);
    if (auto n = platform::file_size(p.path)) eo.policy.archive_bytes = *n;
    if (p.name) eo.policy.expected_top = p.name->top_folder();
    Result<VerifiedExtraction> done = Unexpected<Error>(Error{});
    {
      ProgressLine progress(io, "verifying and extracting", 0);
      if (progress.enabled()) eo.on_bytes = [&](std::uint64_t n) { progress.add(n); };
      done = verify_and_extract(p.path, p.format, p.expected, opts->archive.allow_unverified, staging, eo);
    }
    if (!done) return Unexpected<Error>(done.error());
    if (fs::exists(dest, ec)) fs::remove(dest, ec);
    fs::rename(path_from_utf8(staging), dest, ec);
    if (ec) {
      platform::remove_tree(staging);
      return fail(ErrorCode::io, fmt::format("cannot move the extracted files into '{}': {}", opts->to, ec.message()), "", opts->to);
    }
    if (!done->verify.matched) io.warn(fmt::format("'{}' is UNVERIFIED: no expected hash is known (--allow-unverified)", p.path));
    const auto& x = done->extract;
    if (io.json) {
      nlohmann::json entries = nlohmann::json::array();
      for (const auto& e : x.listing.entries)
        entries.push_back({{"name", e.name}, {"type", std::string(to_string(e.type))}, {"size", e.size},
                           {"link_target", e.link_target.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.link_target)}});
      nlohmann::json j{{"ok", true},
                       {"path", p.path},
                       {"to", utf8_of(dest)},
                       {"sha256", done->verify.sha256},
                       {"verified", done->verify.matched.has_value()},
                       {"matched_origin", done->verify.matched ? nlohmann::json(done->verify.matched->origin) : nlohmann::json(nullptr)},
                       {"files", x.files},
                       {"bytes", x.bytes_written},
                       {"entries", entries},
                       {"warnings", io.warnings}};
      io.out << json_text(j) << "\n";
    } else {
      io.out << fmt::format("extracted {} files ({} bytes) from {}\n  into     {}\n  sha256   {} ({})\n", x.files, x.bytes_written, p.path,
                            utf8_of(dest), done->verify.sha256,
                            done->verify.matched ? "matches " + done->verify.matched->origin : std::string("UNVERIFIED"));
    }
    return ExitCode::ok;
  };
}

} // namespace cudnnctl
