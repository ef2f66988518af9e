#include "cudnnctl/base/sha256.hpp"

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

} // namespace cudnnctl
