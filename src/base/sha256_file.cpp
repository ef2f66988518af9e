// Streaming a file through Sha256 (whichever implementation the build links: OpenSSL, or Windows CNG).
#include <chrono>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/sha256.hpp"

namespace cudnnctl {

Result<std::string> sha256_file(const std::string& path, const ProgressFn& progress) {
  const auto started = std::chrono::steady_clock::now();
  Sha256 h;
  CUDNNCTL_TRY_ASSIGN(const auto bytes, read_file_chunks(path, [&](const char* p, std::size_t n) { h.update(p, n); }, progress));
  auto digest = h.finish();
  log::debug("SHA-256 of {}: {} ({} bytes in {})", path, digest, bytes, log::elapsed_ms(started));
  return digest;
}

} // namespace cudnnctl
