// libFuzzer target for the streaming fat-binary scanner (loader/fatbin_stream.hpp): the bytes after the first as
// a whole file, fed in chunks whose size the first byte picks. Any bytes: no crash, no UB, the entry cap kept, and
// where both the scanner and the random-access reader read the file, they read the same code.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cudnnctl/loader/fatbin_stream.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // small chunks (1..64 bytes) find boundary mistakes; larger ones (up to ~18 KiB) keep the runs fast
  const std::size_t chunk = data[0] < 64 ? 1u + data[0] : 1u + (data[0] - 64u) * 97u;
  const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  cudnnctl::FatbinStreamScanner scanner("fuzz");
  for (std::size_t at = 0; at < bytes.size(); at += chunk) scanner.feed(bytes.data() + at, std::min(chunk, bytes.size() - at));
  const auto streamed = scanner.finish();
  if (!streamed) return 0;
  if (streamed->entries.size() > cudnnctl::k_fatbin_max_entries) std::abort();
  const cudnnctl::ReadAt read_at = [&](std::uint64_t off, std::size_t n) {
    return off >= bytes.size() ? std::string() : bytes.substr(off, n);
  };
  const auto random_access = cudnnctl::read_gpu_code(read_at, "fuzz");
  if (!random_access) return 0;
  if (random_access->has_fatbin != streamed->has_fatbin || random_access->entries.size() != streamed->entries.size() ||
      random_access->containers != streamed->containers)
    std::abort();
  for (std::size_t i = 0; i < streamed->entries.size(); ++i)
    if (random_access->entries[i].arch != streamed->entries[i].arch || random_access->entries[i].kind != streamed->entries[i].kind)
      std::abort();
  return 0;
}
