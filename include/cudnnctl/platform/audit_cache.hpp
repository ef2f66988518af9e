#pragma once
// The LD_AUDIT module carried inside the portable single-file cudnnctl (CUDNNCTL_PORTABLE): written out, when
// trace needs it and no installed copy exists, into a private per-user folder, and used only after its bytes
// hash to those carried in the binary. Linux only (Windows traces without a module).
#include <string>
#include <string_view>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::platform {

/// Whether this build carries the audit module's bytes (the portable build does).
bool has_embedded_audit_library();

/// Writes the carried module into audit_cache_dir() (see write_audit_library); its path.
Result<std::string> write_embedded_audit_library();

/// $XDG_CACHE_HOME/cudnnctl/audit-<uid> (else ~/.cache/..., else $TMPDIR or /tmp/cudnnctl-audit-<uid>).
std::string audit_cache_dir();

/// `dir` is made (0700) or must already be a folder, not a link, owned by this user and closed to others;
/// in it, libcudnnctl_audit-<first 16 hex of the bytes' SHA-256>.so is the path returned. An existing file
/// there is used only when it is a regular file owned by this user, not writable by others, whose content
/// hashes to the bytes' hash; otherwise it is replaced (a temporary file renamed over it).
Result<std::string> write_audit_library(std::string_view bytes, const std::string& dir);

} // namespace cudnnctl::platform
