// libFuzzer target for the PE import reader: any bytes, no crash, no UB, bounded reads.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cudnnctl/loader/pe_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::size_t requested = 0;
  const auto r = cudnnctl::read_pe_imports(
      [&](std::uint64_t off, std::size_t n) {
        requested += n;
        if (requested > (1u << 26)) std::abort();
        return off >= bytes.size() ? std::string() : bytes.substr(off, n);
      },
      "fuzz");
  if (r)
    for (const auto& n : r->imports)
      if (n.empty() || n.size() > 260) std::abort();
  return 0;
}
