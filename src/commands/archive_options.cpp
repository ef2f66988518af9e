#include "cudnnctl/commands/archive_options.hpp"

#include <fstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cudnnctl/archive/sniff.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

void add_archive_options(CLI::App& sub, ArchiveOptions& opts) {
  sub.add_option("archive", opts.archive, "The archive file")->required();
  auto* sha = sub.add_option("--sha256", opts.hashes.sha256, "Expected SHA-256 (64 hex digits)");
  sub.add_option("--sha256-file", opts.hashes.sha256_file, "Checksum file in sha256sum format")->excludes(sha);
  sub.add_flag("--allow-unverified", opts.allow_unverified, "Accept an archive for which no expected hash is known");
  sub.add_option("--catalog", opts.catalog, "Release catalog JSON to use instead of the built-in one");
}

void add_name_encoding_option(CLI::App& sub, std::string& encoding) {
  sub.add_option("--name-encoding", encoding, "Encoding of member names for archives re-packed by legacy tools (CP437, GBK, ...)");
}

Result<PreparedArchive> prepare_archive(const ArchiveOptions& opts, Io& io, CatalogSource& catalogs) {
  PreparedArchive p;
  p.path = opts.archive;
  // the built-in catalog is parsed only when a hash has to come from it
  const bool hash_given = !opts.hashes.sha256.empty() || !opts.hashes.sha256_file.empty();
  Catalog none;
  CUDNNCTL_TRY_ASSIGN(auto catalog, hash_given && !catalogs.from_file() ? Result<const Catalog*>(&none) : catalogs.get());
  auto name = parse_archive_name(opts.archive);
  const bool explicit_hash = !opts.hashes.sha256.empty() || !opts.hashes.sha256_file.empty() ||
                             sidecar_present(opts.archive);
  if (name) {
    for (const auto& w : name->warnings) io.warn(w);
    p.format = name->format;
    p.name = *name;
  } else if (explicit_hash) {
    // a renamed file can still be checked against a hash given for it; its format comes from its bytes
    io.warn(fmt::format("{} (checking the file against the hash given anyway)", name.error().message));
    // its first bytes are read to tell the format: a FIFO or a device would block or never end
    CUDNNCTL_TRY(platform::require_regular_file(opts.archive, "the archive"));
    std::ifstream in(path_from_utf8(opts.archive), std::ios::binary);
    std::string head(16, '\0');
    in.read(head.data(), 16);
    head.resize(static_cast<std::size_t>(in.gcount()));
    const auto kind = sniff_bytes(head);
    p.format = kind == FileKind::xz ? ArchiveFormat::tar_xz : kind == FileKind::gzip ? ArchiveFormat::tgz : ArchiveFormat::zip;
  } else {
    return Unexpected<Error>(name.error());
  }
  CUDNNCTL_TRY_ASSIGN(auto expected, expected_hashes(opts.archive, p.name ? p.name->canonical : std::string(base_name(opts.archive)), opts.hashes,
                                  *catalog, io.warnings));
  p.expected = std::move(expected);
  for (const auto& e : p.expected)
    if (e.size) p.catalog_size = e.size;
  return p;
}

} // namespace cudnnctl
