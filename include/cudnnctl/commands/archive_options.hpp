#pragma once
// Options shared by the commands that read an archive file (verify, extract; later install).
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

void add_archive_options(CLI::App& sub, ArchiveOptions& opts, Io& io);

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
