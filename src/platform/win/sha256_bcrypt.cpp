// Sha256 through Windows CNG (bcrypt), for Windows builds without OpenSSL (the mingw-w64 test build).
#include <windows.h>
#include <bcrypt.h>

#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

struct Sha256::State {
  BCRYPT_ALG_HANDLE alg = nullptr;
  BCRYPT_HASH_HANDLE hash = nullptr;
};

Sha256::Sha256() : m_state(std::make_unique<State>()) {
  BCryptOpenAlgorithmProvider(&m_state->alg, BCRYPT_SHA256_ALGORITHM, nullptr, 0);
  BCryptCreateHash(m_state->alg, &m_state->hash, nullptr, 0, nullptr, 0, 0);
}

Sha256::~Sha256() {
  if (!m_state) return;
  if (m_state->hash) BCryptDestroyHash(m_state->hash);
  if (m_state->alg) BCryptCloseAlgorithmProvider(m_state->alg, 0);
}

Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(const void* data, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  while (n > 0) {
    const ULONG chunk = static_cast<ULONG>(n > (1u << 30) ? (1u << 30) : n);
    BCryptHashData(m_state->hash, const_cast<PUCHAR>(p), chunk, 0);
    p += chunk;
    n -= chunk;
  }
}

std::string Sha256::finish() {
  unsigned char md[32];
  BCryptFinishHash(m_state->hash, md, sizeof md, 0);
  return to_hex(md, sizeof md);
}

} // namespace cudnnctl
