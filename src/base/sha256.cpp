#include "cudnnctl/base/sha256.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <fmt/format.h>
#include <openssl/evp.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

struct Sha256::State {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : m_state(std::make_unique<State>()) {
  m_state->ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(m_state->ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256() {
  if (m_state && m_state->ctx) EVP_MD_CTX_free(m_state->ctx);
}

Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(const void* data, std::size_t n) { EVP_DigestUpdate(m_state->ctx, data, n); }

std::string Sha256::finish() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(m_state->ctx, md, &len);
  return to_hex(md, len);
}

Result<std::string> sha256_file(const std::string& path, const ProgressFn& progress) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f)
    return fail(errno == ENOENT ? ErrorCode::file_not_found : ErrorCode::io,
                fmt::format("cannot open '{}': {}", path, std::strerror(errno)), "check the path and its permissions", path);
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
  return h.finish();
}

} // namespace cudnnctl
