// libFuzzer target for the ELF dynamic-section reader (with the symbol-version tables): any bytes, no crash, no UB, no unbounded read.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cudnnctl/loader/elf_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::size_t requested = 0;
  const auto r = cudnnctl::read_elf_dynamic(
      [&](std::uint64_t off, std::size_t n) {
        requested += n;
        if (requested > (1u << 28)) std::abort();  // the reader must bound what it asks for
        return off >= bytes.size() ? std::string() : bytes.substr(off, n);
      },
      "fuzz");
  if (r) {
    for (const auto& n : r->needed)
      if (n.find('\0') != std::string::npos) std::abort();
    for (const auto& v : r->version_needs)
      if (v.file.find('\0') != std::string::npos || v.version.find('\0') != std::string::npos) std::abort();
    if (r->version_needs.size() > 4096 || r->version_defs.size() > 4096) std::abort();  // the tables' bound
  }
  return 0;
}
