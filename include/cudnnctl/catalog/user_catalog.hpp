#pragma once
// The user catalog: the releases `cudnnctl catalog update` (or a fetch of a version no catalog knew)
// learnt from NVIDIA's manifests, kept in the cache as a catalog file (schema 1) whose archive rows carry
// the manifest URL they came from and the date. Commands read it after the built-in catalog: a file name
// the built-in catalog knows is always answered from there, and a user row that contradicts it is refused.
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/catalog/manifest.hpp"

namespace cudnnctl {

/// %LOCALAPPDATA%\cudnnctl\catalog.json (Windows), else $XDG_CACHE_HOME/cudnnctl/catalog.json or
/// ~/.cache/cudnnctl/catalog.json: beside fetch's archives folder.
std::string default_user_catalog_path();
/// Today's date in UTC, YYYY-MM-DD.
std::string today_utc();

/// The user catalog at `path`; a missing file is an empty one. Every row is checked again (its name, its
/// NVIDIA path, and against `builtin`): a file that breaks a rule is catalog.invalid, naming it.
Result<Catalog> load_user_catalog(const std::string& path, const Catalog& builtin);
/// `user` with the manifest's release and its archives added (a file name it has already is kept as it is).
Catalog add_manifest(const Catalog& user, const Manifest& manifest);
/// The user catalog as catalog JSON (schema 1), each archive with its origin and date.
std::string user_catalog_json(const Catalog& user);
/// Writes the user catalog atomically: a temporary file beside it, flushed, renamed over it.
Result<void> save_user_catalog(const std::string& path, const Catalog& user);
/// The built-in catalog, then the user catalog at `path` (when it exists): what a command without --catalog reads.
Result<Catalog> builtin_then_user(const std::string& path);

} // namespace cudnnctl
