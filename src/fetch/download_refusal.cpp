// The refusals of a download (see the header): their words, ids and fixes in one place.
#include "cudnnctl/fetch/download_refusal.hpp"

#include <fmt/format.h>

namespace cudnnctl {

std::optional<std::string> announced_over_cap(std::optional<std::uint64_t> announced, std::optional<std::uint64_t> expected, std::uint64_t cap) {
  if (expected || !announced || *announced <= cap) return std::nullopt;
  return fmt::format("announces {} bytes, more than the {} bytes (the cap) cudnnctl downloads for an archive whose catalog row has no size",
                     *announced, cap);
}

std::string sent_past_cap(std::uint64_t cap) {
  return fmt::format("sent more than {} bytes without announcing a size: the cap cudnnctl downloads for an archive whose catalog row has no size",
                     cap);
}

Error lying_server(const std::string& url, const std::string& what) {
  return Error{ErrorCode::hash_mismatch, fmt::format("{} sent {}", url, what),
               "the server sends another file than it announces (what it sent was removed): check --mirror", url};
}

Error past_cap(const std::string& url, const std::string& what) {
  return Error{ErrorCode::download_too_large, fmt::format("{} {}", url, what),
               "nothing was kept; check --mirror: no cuDNN archive is that large (docs/install.md, 'Every download is bounded')", url};
}

Error changed_twice(const std::string& url) {
  return Error{ErrorCode::io, fmt::format("{} changed on the server again during the download (ETag, Last-Modified or size differ between answers)", url),
               "the server or mirror is being updated: try again later, or use another --mirror", url};
}

Error refused_redirect(const std::string& url, const std::string& what) {
  return Error{ErrorCode::download_redirects, fmt::format("downloading {} was refused: {}", url, what),
               "check --mirror: it must answer with the file, or redirect a few times at most and never from https to http", url};
}

} // namespace cudnnctl
