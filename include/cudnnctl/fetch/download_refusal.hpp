#pragma once
// The answers a download refuses rather than resumes: a server that lies about what it sends, one that goes
// past the size cap of an archive the catalog has no size for, and redirects past the limit or off https.
// Each is an error whose bytes are removed with the `.part` file's sidecar (parallel_download.hpp).
#include <cstdint>
#include <optional>
#include <string>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// Why a size the server announces (Content-Length, or Content-Range's total) is refused before its body:
/// only when the catalog gives none (`expected` empty) and it is above `cap`.
std::optional<std::string> announced_over_cap(std::optional<std::uint64_t> announced, std::optional<std::uint64_t> expected, std::uint64_t cap);
/// The words for a body without an announced size that went past `cap`.
std::string sent_past_cap(std::uint64_t cap);

/// verify.mismatch: more bytes than announced, another size than the catalog's.
Error lying_server(const std::string& url, const std::string& what);
/// download.too-large: past the cap, announced or sent.
Error past_cap(const std::string& url, const std::string& what);
/// io.error: the file changed on the server again after the download started over.
Error changed_twice(const std::string& url);
/// download.redirects: more redirects than allowed, or a redirect off https.
Error refused_redirect(const std::string& url, const std::string& what);

} // namespace cudnnctl
