// Streaming a file through Sha256 (whichever implementation the build links: OpenSSL, or Windows CNG).
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/sha256.hpp"

namespace cudnnctl {

Result<std::string> sha256_file(const std::string& path, const ProgressFn& progress) {
  const auto started = std::chrono::steady_clock::now();
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    const int e = errno;
    log::debug("open for reading {} (SHA-256): {}", path, std::strerror(e));
    return fail(e == ENOENT ? ErrorCode::file_not_found : ErrorCode::io, fmt::format("cannot open '{}': {}", path, std::strerror(e)),
                "check the path and its permissions", path);
  }
  log::debug("open for reading {} (SHA-256)", path);
  std::setvbuf(f, nullptr, _IONBF, 0);
  std::uint64_t total = 0;
  if (std::fseek(f, 0, SEEK_END) == 0) {
    const long end = std::ftell(f);
    total = end > 0 ? static_cast<std::uint64_t>(end) : 0;
    std::fseek(f, 0, SEEK_SET);
  }
  Sha256 h;
  std::vector<unsigned char> buf(1 << 18);
  std::uint64_t done = 0;
  for (;;) {
    const std::size_t n = std::fread(buf.data(), 1, buf.size(), f);
    if (n > 0) {
      h.update(buf.data(), n);
      done += n;
      if (progress) progress(done, total);
    }
    if (n < buf.size()) {
      if (std::ferror(f)) {
        const int e = errno;
        std::fclose(f);
        return fail(ErrorCode::io, fmt::format("read error in '{}' after {} bytes: {}", path, done, std::strerror(e)), "", path);
      }
      break;
    }
  }
  std::fclose(f);
  auto digest = h.finish();
  log::debug("SHA-256 of {}: {} ({} bytes in {})", path, digest, done, log::elapsed_ms(started));
  return digest;
}

} // namespace cudnnctl
