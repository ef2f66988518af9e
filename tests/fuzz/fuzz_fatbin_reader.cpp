// libFuzzer target for the fat-binary reader: the bytes as a fat-binary section, and as a whole file (ELF or PE
// whose section table leads to one). Any bytes: no crash, no UB, no unbounded read, the entry cap kept.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "cudnnctl/loader/fatbin_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::size_t requested = 0;
  const cudnnctl::ReadAt read_at = [&](std::uint64_t off, std::size_t n) {
    requested += n;
    if (requested > (1u << 28)) std::abort();  // the reader must bound what it asks for
    return off >= bytes.size() ? std::string() : bytes.substr(off, n);
  };
  const auto check = [](const cudnnctl::Result<cudnnctl::GpuCode>& r) {
    if (!r) return;
    if (r->entries.size() > cudnnctl::k_fatbin_max_entries) std::abort();
    for (const auto& e : r->entries)
      if (e.kind != cudnnctl::FatbinKind::other && (e.arch.number < 10 || e.arch.number > 999)) std::abort();
  };
  check(cudnnctl::read_fatbin_section(read_at, {0, bytes.size()}, "fuzz"));
  requested = 0;
  check(cudnnctl::read_gpu_code(read_at, "fuzz"));
  return 0;
}
