#pragma once
// Reads which GPU code a library carries: the CUDA fat binaries in an ELF file's `.nv_fatbin` section or a
// PE file's `.nv_fatb` section. A section holds fat-binary containers back to back or separated by zero padding
// (k_fatbin_max_gap), then at most 64 KiB of zeros (a PE section is read up to its virtual size); a container is a
// 16-byte header (magic 0xBA55ED50, version 1, header size 16, the size of what follows) and entries, each
// an entry header (kind: 1 PTX, 2 SASS in an ELF cubin; its header size; its payload size; the architecture;
// flags: 0x2000 / 0x8000 compressed, 0x100000 the `a` variant, 0x200000 the `f` variant) and its payload.
// Only headers are read, never a payload, and nothing is decompressed. Every size, count and offset is
// checked against the section and the container: the input may be anything.
#include <cstdint>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/loader/gpu_arch.hpp"

namespace cudnnctl {

enum class FatbinKind { sass, ptx, other };

struct FatbinEntry {
  FatbinKind kind = FatbinKind::other;
  std::uint16_t kind_code = 0;           // the entry header's kind as written (1 PTX, 2 SASS)
  GpuArch arch;                          // sm_XY for SASS, compute_XY for PTX
  bool compressed = false;
  std::uint16_t ptx_isa_major = 0;       // PTX entries: the PTX ISA version (9.0 from CUDA 13.0)
  std::uint16_t ptx_isa_minor = 0;
  std::uint64_t stored_size = 0;         // payload bytes in the file
  std::uint64_t uncompressed_size = 0;   // what the entry header says it inflates to (0: not compressed)
};

/// The GPU code of one library.
struct GpuCode {
  bool has_fatbin = false;     // the library has the section (libcudnn.so.9 itself has none)
  std::string section;         // ".nv_fatbin" or ".nv_fatb"
  std::size_t containers = 0;
  std::vector<FatbinEntry> entries;  // in file order

  /// Distinct SASS architectures, ordered ("sm_75", "sm_90", "sm_90a", "sm_100f").
  std::vector<GpuArch> sass() const;
  /// Distinct PTX architectures, ordered ("compute_121").
  std::vector<GpuArch> ptx() const;
  std::size_t compressed_entries() const;
};

/// Caps on what one section may hold (real cuDNN 9 libraries: a few thousand entries, 150 MB of section).
inline constexpr std::size_t k_fatbin_max_entries = 1u << 20;
inline constexpr std::uint32_t k_fatbin_max_entry_header = 4096;
/// Zero padding between two containers: at most this many bytes, the next container on an 8-byte boundary of the
/// section (measured: 8 bytes in NVIDIA's Windows DLLs, up to 232 in the aarch64 libraries' 256-byte alignment).
inline constexpr std::uint64_t k_fatbin_max_gap = 4096;
inline constexpr std::uint64_t k_fatbin_alignment = 8;

/// One entry header (at least its first 64 bytes) read with this reader's rules; the string says why not.
Expected<FatbinEntry, std::string> parse_fatbin_entry(const std::string& header);

/// Reads the containers in `range` of the file. `what` names the file in errors.
Result<GpuCode> read_fatbin_section(const ReadAt& read_at, FileRange range, const std::string& what);

/// The GPU code of an ELF or PE library: its fat-binary section read (none: has_fatbin false).
Result<GpuCode> read_gpu_code(const ReadAt& read_at, const std::string& what);

/// The same for a file on disk.
Result<GpuCode> read_gpu_code_file(const std::string& path);

/// "SASS sm_75 sm_80 ...; PTX compute_121" (empty parts left out; "no GPU code" when there is none).
std::string gpu_code_summary(const GpuCode& code);

} // namespace cudnnctl
