#pragma once
// A reader over bytes held in memory, for the ELF and PE readers' tests: what is past the end reads as nothing.
#include <cstdint>
#include <string>

#include "cudnnctl/loader/elf_reader.hpp"

namespace cudnnctl::testing {

inline ReadAt memory(const std::string& bytes) {
  return [bytes](std::uint64_t off, std::size_t n) { return off >= bytes.size() ? std::string() : bytes.substr(off, n); };
}

} // namespace cudnnctl::testing
