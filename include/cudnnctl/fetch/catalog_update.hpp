#pragma once
// Keeping the user catalog current from NVIDIA's release manifests (or a mirror serving the same paths):
// the manifest list (the redist folder's listing page), then each manifest the catalogs do not know, each
// validated strictly (catalog/manifest.hpp). One refused manifest refuses the whole update: the user
// catalog is written only when every manifest passed, and then atomically.
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/catalog/manifest.hpp"

namespace cudnnctl {

/// The listing page is a few hundred KB at most; a larger answer is refused.
inline constexpr std::size_t k_listing_max_bytes = 4U << 20;

/// <mirror or NVIDIA's server>/compute/cudnn/redist/ (always ending in '/').
std::string redist_base_url(const std::string& mirror);
/// <redist base>redistrib_<label>.json.
std::string manifest_url(const std::string& mirror, const std::string& label);

/// GET `url` into memory, at most `max_bytes`: a larger Content-Length is refused before the body and a longer
/// body is cut one byte past the cap, both refused as `too_large` (download.too-large; a manifest passes
/// catalog.manifest-refused); a redirect past the limit or off https is download.redirects.
Result<std::string> http_get_text(const std::string& url, std::size_t max_bytes, const std::string& what, int stall_timeout_s = 60,
                                  ErrorCode too_large = ErrorCode::download_too_large);

struct CatalogUpdateRequest {
  std::string mirror;               // empty: NVIDIA's server
  std::string user_catalog;         // the file to update
  std::vector<std::string> labels;  // empty: every label of the listing that no catalog knows; else these (fetched again)
  int stall_timeout_s = 60;
};

struct CatalogUpdateOutcome {
  std::string listing_url;               // empty when labels were given
  std::vector<std::string> listed;       // the labels the listing names
  std::vector<Manifest> learnt;          // manifests read and added
  std::vector<std::string> already_known;  // listed labels a catalog had
  std::size_t archives_added = 0;
  bool written = false;                  // the user catalog file was replaced
};

/// Reads the listing (or the given labels), fetches and validates the manifests, and writes the user catalog
/// once, when every manifest passed. `builtin` is the built-in catalog.
Result<CatalogUpdateOutcome> update_user_catalog(const CatalogUpdateRequest& request, const Catalog& builtin);

/// Fetches one release's manifest (a version's first three parts: 9.30.0) into the user catalog: what fetch and
/// install do for a version no catalog knows. Returns the manifest learnt.
Result<Manifest> learn_release(const std::string& label, const std::string& mirror, const std::string& user_catalog, const Catalog& builtin);

} // namespace cudnnctl
