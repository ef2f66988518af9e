#pragma once
// Options shared by the commands that read an archive file (verify, extract, install, bundle swap).
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/archive/verify.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/commands/command.hpp"
#include "cudnnctl/contract/archive_name.hpp"

namespace cudnnctl {

struct ArchiveOptions {
  std::string archive;
  HashSources hashes;
  bool allow_unverified = false;
  std::string catalog;
};

/// The archive (a positional: declare a command's earlier positionals first), --sha256, --sha256-file,
/// --allow-unverified and --catalog: every command that takes an archive file takes these.
void add_archive_options(CLI::App& sub, ArchiveOptions& opts);
/// --name-encoding, for the commands that read the archive's member names (extract, install, bundle swap).
void add_name_encoding_option(CLI::App& sub, std::string& encoding);

struct PreparedArchive {
  std::string path;
  std::optional<ArchiveName> name;  // nullopt: the file name is not NVIDIA's (allowed with an explicit hash)
  ArchiveFormat format = ArchiveFormat::zip;
  std::vector<ExpectedHash> expected;
  std::optional<std::uint64_t> catalog_size;
};

/// Parses the name and gathers the expected hashes, from `catalogs` unless a hash was given and no
/// --catalog file was named (then the catalog is not read at all).
Result<PreparedArchive> prepare_archive(const ArchiveOptions& opts, Io& io, CatalogSource& catalogs);

} // namespace cudnnctl
