#pragma once
// Streaming SHA-256 (OpenSSL EVP): the whole file never sits in memory.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/file_chunks.hpp"  // ProgressFn

namespace cudnnctl {

class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;
  void update(const void* data, std::size_t n);
  /// Lower-case hex digest; the object is spent afterwards.
  std::string finish();

private:
  struct State;
  std::unique_ptr<State> m_state;
};

/// Hashes a file as read_file_chunks streams it.
Result<std::string> sha256_file(const std::string& path, const ProgressFn& progress = {});

} // namespace cudnnctl
