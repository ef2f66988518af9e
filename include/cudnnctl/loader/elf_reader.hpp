#pragma once
// Reads what the dynamic loader needs from an ELF shared object: SONAME, DT_NEEDED, RUNPATH/RPATH and
// the machine, and the symbol-version tables
// (version needed, version defined). Reads only the headers it needs through a positional-read callback, so a 234 MB
// library costs a few KiB of I/O. Every offset and size is checked: the input may be anything.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct ElfDynamicInfo {
  bool is_64 = true;
  bool little_endian = true;
  std::uint16_t machine = 0;  // EM_X86_64 = 62, EM_AARCH64 = 183, EM_PPC64 = 21
  std::string soname;
  std::vector<std::string> needed;
  std::string runpath;
  std::string rpath;
  // Symbol versions from the version-needed table (SHT_GNU_verneed, DT_VERNEED): what the library asks of
  // the libraries it links, e.g. {"libc.so.6", "GLIBC_2.27"}, {"libstdc++.so.6", "GLIBCXX_3.4.20"}.
  struct VersionNeed {
    std::string file;
    std::string version;
  };
  std::vector<VersionNeed> version_needs;
  // Versions the library itself defines (SHT_GNU_verdef, DT_VERDEF): libstdc++.so.6 defines GLIBCXX_3.4.x.
  std::vector<std::string> version_defs;
};

/// Reads up to `n` bytes at `offset`; returns fewer at the end of the file.
using ReadAt = std::function<std::string(std::uint64_t offset, std::size_t n)>;

/// Reads a file on disk for read_elf_dynamic / read_pe_imports (short reads at the end of the file).
Result<ReadAt> file_reader(const std::string& path);

/// Parses the dynamic section. `what` names the file in errors.
Result<ElfDynamicInfo> read_elf_dynamic(const ReadAt& read_at, const std::string& what);

/// The same for a file on disk.
Result<ElfDynamicInfo> read_elf_file(const std::string& path);

/// Where a section's bytes lie in the file.
struct FileRange {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

/// The file range of the section named `name`, from the section header table and its name table
/// (nullopt: no such section, or one that holds no file bytes). `what` names the file in errors.
Result<std::optional<FileRange>> find_elf_section(const ReadAt& read_at, const std::string& name, const std::string& what);

/// "x86_64", "aarch64", "ppc64le", or "machine N".
std::string elf_machine_name(std::uint16_t machine);

} // namespace cudnnctl
