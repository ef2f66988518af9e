#pragma once
// Reads a Windows PE file's machine, the DLLs it imports (the import table and the delay-load table) and
// the file and product version of its version resource (RT_VERSION), through bounded positional reads. The input may be anything: every offset is checked.
#include <cstdint>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/loader/elf_reader.hpp"

namespace cudnnctl {

struct PeImports {
  std::uint16_t machine = 0;  // 0x8664 x64, 0x14c x86, 0xAA64 arm64
  bool is_pe32_plus = true;
  bool is_dll = false;
  std::vector<std::string> imports;        // DLL names, as written
  std::vector<std::string> delay_imports;  // loaded at first use
  std::string file_version;                // "9.1.0.70" from the VS_FIXEDFILEINFO of the version resource; empty: none
  std::string product_version;
};

Result<PeImports> read_pe_imports(const ReadAt& read_at, const std::string& what);
Result<PeImports> read_pe_file(const std::string& path);

/// The file range of the section named `name` (at most 8 characters: ".nv_fatb"), from the section table:
/// its raw data, cut to its virtual size when that is smaller (nullopt: no such section).
Result<std::optional<FileRange>> find_pe_section(const ReadAt& read_at, const std::string& name, const std::string& what);

/// "x64", "x86", "arm64", or "machine 0x...".
std::string pe_machine_name(std::uint16_t machine);

} // namespace cudnnctl
