// libFuzzer target for the archive-name parser. Besides "no crash, no UB", it checks properties:
// a parsed name's canonical spelling parses again to the same fields, and rebuilding the name
// from those fields gives the same spelling.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cudnnctl/contract/archive_name.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parsed = cudnnctl::parse_archive_name(input);
  if (!parsed) {
    if (parsed.error().message.empty()) std::abort();
    return 0;
  }
  const auto again = cudnnctl::parse_archive_name(parsed->canonical);
  if (!again) std::abort();
  if (again->canonical != parsed->canonical || again->version != parsed->version ||
      again->platform != parsed->platform || again->cuda_variant != parsed->cuda_variant || again->era != parsed->era)
    std::abort();
  if (cudnnctl::canonical_name(*again) != parsed->canonical) std::abort();
  return 0;
}
