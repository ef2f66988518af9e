#pragma once
// The version contract: what an archive's name promises, joined with what the catalog knows
// about it (hashes, sizes, supported CUDA range, driver minimum) and whether it fits this machine.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

struct HostFit {
  bool runs_here = true;
  std::string explanation;     // why not, in plain words (empty when it fits)
  std::string suggested_name;  // the archive this machine needs instead, when one can be named
};

/// Which release a short legacy version field (v7, v7.1) stands for: one release when the catalog or a
/// sourced pin says so, else the range of releases it can be.
struct ReleasePin {
  bool exact = false;
  std::string release;  // exact: "7.0.4"
  std::string range;    // not exact: "7.0.0-7.6.5 (the catalog's 7.x releases)" or "any 7.x release"
  std::string source;
};

struct VersionContract {
  ArchiveName name;
  std::optional<std::uint32_t> cudnn_version;  // CUDNN_VERSION as the headers encode it
  ExpectedLayout layout;
  std::optional<CatalogArchive> catalog_entry; // nullopt: not in the catalog
  std::vector<SupportRow> support;             // NVIDIA support rows for this release and CUDA major
  std::optional<ReleaseInfo> release;
  std::optional<ReleasePin> pin;               // only for names whose version field has fewer than 3 parts
  HostFit host;
  std::string catalog_origin;
};

VersionContract make_contract(const ArchiveName& name, const Catalog& catalog, const platform::HostPlatform& host);

/// Whether an archive for `name` can run on `host`, and if not, why and what to get instead.
HostFit check_host_fit(const ArchiveName& name, const Catalog& catalog, const platform::HostPlatform& host);

/// The release a short legacy version field stands for (nullopt when the name gives three or more parts).
std::optional<ReleasePin> pin_release(const ArchiveName& name, const Catalog& catalog);

/// "12.0-12.4" from a support row's toolkits; empty when the row has none.
std::string cuda_range(const SupportRow& row);

} // namespace cudnnctl
