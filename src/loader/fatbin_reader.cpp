#include "cudnnctl/loader/fatbin_reader.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace {

constexpr std::uint32_t k_fatbin_magic = 0xBA55ED50u;
constexpr std::size_t k_container_header = 16, k_entry_header = 64;
constexpr std::uint64_t k_max_zero_tail = 1u << 16;  // zero padding after the last container
constexpr std::uint64_t k_flag_lz4 = 0x2000, k_flag_zstd = 0x8000, k_flag_arch_specific = 0x100000, k_flag_family = 0x200000;

std::uint64_t fatbin_le(const std::string& b, std::size_t at, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(b[at + i])) << (8 * i);
  return v;
}

using Why = Unexpected<std::string>;

// The entries of the container whose entries lie in [begin, end) of the section: each header read, each
// payload skipped.
Expected<void, std::string> read_entries(const ReadAt& read_at, const FileRange& range, std::uint64_t begin, std::uint64_t end, GpuCode& out) {
  std::uint64_t at = begin;
  while (at < end) {
    if (end - at < k_entry_header) return Why(fmt::format("the entry header at offset {} is cut short by its container's end", at));
    const auto h = read_at(range.offset + at, k_entry_header);
    if (h.size() < k_entry_header) return Why("an entry header lies past the end of the file");
    const auto header_size = fatbin_le(h, 4, 4);
    if (header_size < k_entry_header || header_size > k_fatbin_max_entry_header || header_size > end - at)
      return Why(fmt::format("the entry at offset {} has a header size of {}", at, header_size));
    const auto payload = fatbin_le(h, 8, 8);
    if (payload > end - at - header_size) return Why(fmt::format("the entry at offset {} says its code runs past its container", at));
    auto entry = parse_fatbin_entry(h);
    if (!entry) return Why(entry.error());
    if (out.entries.size() >= k_fatbin_max_entries) return Why(fmt::format("it has more than {} entries", k_fatbin_max_entries));
    out.entries.push_back(*entry);
    at += header_size + payload;
  }
  return {};
}

// What follows the last container: nothing, or a little zero padding.
bool zero_tail(const ReadAt& read_at, const FileRange& range, std::uint64_t at) {
  const auto left = range.size - at;
  if (left > k_max_zero_tail) return false;
  const auto rest = read_at(range.offset + at, static_cast<std::size_t>(left));
  return rest.size() == left && rest.find_first_not_of('\0') == std::string::npos;
}

// The zero bytes between two containers (NVIDIA's linkers align each container: 8 more zero bytes in a Windows
// DLL's `.nv_fatb`, up to 255 to a 256-byte boundary in an aarch64 `.nv_fatbin`): the offset of the next
// container, which must follow the zeros at once, on an 8-byte boundary of the section, within
// k_fatbin_max_gap bytes. Anything else is not padding.
Expected<std::uint64_t, std::string> skip_padding(const ReadAt& read_at, const FileRange& range, std::uint64_t at) {
  const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(range.size - at, k_fatbin_max_gap + 4));
  const auto bytes = read_at(range.offset + at, want);
  const auto first = bytes.find_first_not_of('\0');
  if (first == std::string::npos || first > k_fatbin_max_gap)
    return Why(fmt::format("offset {} starts more than {} zero bytes that are neither padding before a container nor the section's end", at,
                           k_fatbin_max_gap));
  const auto next = at + first;
  if (next % k_fatbin_alignment != 0 || bytes.size() - first < 4 || fatbin_le(bytes, first, 4) != k_fatbin_magic)
    return Why(fmt::format("offset {} does not start with the fat-binary magic 0xBA55ED50 (after {} zero bytes of padding)", next, first));
  return next;
}

Expected<void, std::string> read_containers(const ReadAt& read_at, const FileRange& range, GpuCode& out) {
  std::uint64_t at = 0;
  while (at < range.size) {
    const auto h = read_at(range.offset + at, k_container_header);
    if (h.size() >= 4 && fatbin_le(h, 0, 4) == 0) {
      if (zero_tail(read_at, range, at)) break;
      if (at > 0) {  // padding after a container, never before the first
        auto next = skip_padding(read_at, range, at);
        if (!next) return Why(next.error());
        at = *next;
        continue;
      }
    }
    if (range.size - at < k_container_header || h.size() < k_container_header)
      return Why(fmt::format("the bytes at offset {} are too few for a container header", at));
    if (fatbin_le(h, 0, 4) != k_fatbin_magic) return Why(fmt::format("offset {} does not start with the fat-binary magic 0xBA55ED50", at));
    const auto version = fatbin_le(h, 4, 2), header_size = fatbin_le(h, 6, 2), body = fatbin_le(h, 8, 8);
    if (version != 1) return Why(fmt::format("the container at offset {} has version {} (1 is known)", at, version));
    if (header_size < k_container_header || header_size > range.size - at)
      return Why(fmt::format("the container at offset {} has a header size of {}", at, header_size));
    if (body > range.size - at - header_size) return Why(fmt::format("the container at offset {} runs past the end of the section", at));
    auto entries = read_entries(read_at, range, at + header_size, at + header_size + body, out);
    if (!entries) return Why(entries.error());
    ++out.containers;
    at += header_size + body;
  }
  return {};
}

std::vector<GpuArch> distinct_archs(const std::vector<FatbinEntry>& entries, FatbinKind kind) {
  std::vector<GpuArch> out;
  for (const auto& e : entries)
    if (e.kind == kind) out.push_back(e.arch);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace

// The entry header at the start of `h` (64 bytes): kind (2), version (2), header size (4), payload size (8),
// compressed size (4), an offset (4), PTX ISA minor (2) and major (2), architecture (4), the object name's
// offset and length (4 + 4), flags (8), reserved (8), the uncompressed size (8).
Expected<FatbinEntry, std::string> parse_fatbin_entry(const std::string& h) {
  FatbinEntry e;
  e.kind_code = static_cast<std::uint16_t>(fatbin_le(h, 0, 2));
  e.kind = e.kind_code == 1 ? FatbinKind::ptx : e.kind_code == 2 ? FatbinKind::sass : FatbinKind::other;
  const auto arch = fatbin_le(h, 28, 4);
  if (e.kind != FatbinKind::other && (arch < 10 || arch > 999)) return Why(fmt::format("an entry names architecture {}", arch));
  const auto flags = fatbin_le(h, 40, 8);
  e.arch.number = static_cast<unsigned>(arch % 1000);
  e.arch.variant = (flags & k_flag_arch_specific) ? ArchVariant::arch_specific : (flags & k_flag_family) ? ArchVariant::family : ArchVariant::plain;
  e.compressed = (flags & (k_flag_lz4 | k_flag_zstd)) != 0;
  e.stored_size = fatbin_le(h, 8, 8);
  e.uncompressed_size = e.compressed ? fatbin_le(h, 56, 8) : 0;
  if (e.kind == FatbinKind::ptx) {
    e.ptx_isa_minor = static_cast<std::uint16_t>(fatbin_le(h, 24, 2));
    e.ptx_isa_major = static_cast<std::uint16_t>(fatbin_le(h, 26, 2));
  }
  return e;
}

std::vector<GpuArch> GpuCode::sass() const { return distinct_archs(entries, FatbinKind::sass); }
std::vector<GpuArch> GpuCode::ptx() const { return distinct_archs(entries, FatbinKind::ptx); }
std::size_t GpuCode::compressed_entries() const {
  return static_cast<std::size_t>(std::count_if(entries.begin(), entries.end(), [](const FatbinEntry& e) { return e.compressed; }));
}

Result<GpuCode> read_fatbin_section(const ReadAt& read_at, FileRange range, const std::string& what) {
  GpuCode code;
  code.has_fatbin = true;
  if (auto r = read_containers(read_at, range, code); !r)
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}' holds a malformed CUDA fat binary: {}", what, r.error()),
                "cudnnctl could not follow this section's layout: if NVIDIA's `cuobjdump --list-elf` lists its code, this is a gap in cudnnctl (please report it); if cuobjdump fails too, the file is damaged: reinstall it from NVIDIA's archive", what);
  return code;
}

Result<GpuCode> read_gpu_code(const ReadAt& read_at, const std::string& what) {
  const auto magic = read_at(0, 4);
  std::optional<FileRange> range;
  std::string section;
  if (magic == std::string("\x7F" "ELF", 4)) {
    section = ".nv_fatbin";
    CUDNNCTL_TRY_ASSIGN(range, find_elf_section(read_at, section, what));
  } else if (magic.size() >= 2 && magic[0] == 'M' && magic[1] == 'Z') {
    section = ".nv_fatb";
    CUDNNCTL_TRY_ASSIGN(range, find_pe_section(read_at, section, what));
  } else {
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}' is neither an ELF nor a PE library", what),
                "name a cuDNN library (libcudnn_*.so.N or cudnn_*64_N.dll)", what);
  }
  if (!range) return GpuCode{};
  CUDNNCTL_TRY_ASSIGN(auto code, read_fatbin_section(read_at, *range, what));
  code.section = section;
  return code;
}

Result<GpuCode> read_gpu_code_file(const std::string& path) {
  // a FIFO or a device is refused before it is opened (opening a FIFO would wait for a writer)
  CUDNNCTL_TRY(platform::require_regular_file(path, "the library"));
  CUDNNCTL_TRY_ASSIGN(auto reader, file_reader(path));
  return read_gpu_code(reader, path);
}

std::string gpu_code_summary(const GpuCode& code) {
  std::vector<std::string> parts;
  std::string sass, ptx;
  for (const auto& a : code.sass()) sass += " " + sass_name(a);
  for (const auto& a : code.ptx()) ptx += " " + ptx_name(a);
  if (!sass.empty()) parts.push_back("SASS" + sass);
  if (!ptx.empty()) parts.push_back("PTX" + ptx);
  if (parts.empty()) return "no GPU code";
  std::string out = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) out += "; " + parts[i];
  return out;
}

} // namespace cudnnctl
