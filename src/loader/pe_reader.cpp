#include "cudnnctl/loader/pe_reader.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>


namespace cudnnctl {

namespace {

std::uint64_t le(const std::string& b, std::size_t at, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(b[at + i])) << (8 * i);
  return v;
}

struct Section {
  std::uint32_t vaddr, vsize, raw_offset, raw_size;
  std::string name;  // up to 8 bytes, NUL-padded in the file
};

// What the tables are read through: the headers' data directories and the section table (which maps
// an RVA to a file offset). Every failure is the reason the file is not a readable DLL.
struct PeLayout {
  const ReadAt& read_at;
  std::string opt;  // the optional header
  std::size_t dirs_at = 0, ndirs = 0;
  std::vector<Section> sections;

  // data directory `i`: its RVA and size ({0, 0} when absent)
  std::pair<std::uint32_t, std::uint32_t> dir(std::size_t i) const {
    if (i >= ndirs || dirs_at + i * 8 + 8 > opt.size()) return {0, 0};
    return {static_cast<std::uint32_t>(le(opt, dirs_at + i * 8, 4)), static_cast<std::uint32_t>(le(opt, dirs_at + i * 8 + 4, 4))};
  }
  std::optional<std::uint64_t> to_offset(std::uint32_t rva) const {
    for (const auto& s : sections) {
      const auto span = std::max(s.vsize, s.raw_size);
      if (rva >= s.vaddr && rva - s.vaddr < span && rva - s.vaddr < s.raw_size) return std::uint64_t{s.raw_offset} + (rva - s.vaddr);
    }
    return std::nullopt;
  }
  // the NUL-terminated name at `rva` (at most 259 bytes; empty is none)
  std::optional<std::string> name_at(std::uint32_t rva) const {
    const auto off = to_offset(rva);
    if (!off) return std::nullopt;
    const auto bytes = read_at(*off, 260);
    const auto end = bytes.find('\0');
    if (end == std::string::npos || end == 0) return std::nullopt;
    return bytes.substr(0, end);
  }
};

using Why = Unexpected<std::string>;

// the optional header (machine, DLL flag and PE32/PE32+ into `out`) and the section table after it
Expected<PeLayout, std::string> read_layout(const ReadAt& read_at, std::uint64_t pe_off, const std::string& hdr, PeImports& out) {
  out.machine = static_cast<std::uint16_t>(le(hdr, 4, 2));
  const auto sections = static_cast<std::size_t>(le(hdr, 6, 2));
  const auto opt_size = static_cast<std::size_t>(le(hdr, 20, 2));
  out.is_dll = (le(hdr, 22, 2) & 0x2000) != 0;
  if (sections == 0 || sections > 96) return Why("its section count is out of range");
  if (opt_size < 96 || opt_size > 4096) return Why("its optional header has an odd size");
  PeLayout layout{read_at, read_at(pe_off + 24, opt_size), 0, 0, {}};
  const auto& opt = layout.opt;
  if (opt.size() < opt_size) return Why("the optional header is truncated");
  const auto magic = le(opt, 0, 2);
  if (magic != 0x20b && magic != 0x10b) return Why("unknown optional header magic");
  out.is_pe32_plus = magic == 0x20b;
  layout.dirs_at = out.is_pe32_plus ? 112 : 96;
  const std::size_t ndirs_at = out.is_pe32_plus ? 108 : 92;
  if (opt.size() < ndirs_at + 4) return Why("the data directory count is missing");
  layout.ndirs = static_cast<std::size_t>(std::min<std::uint64_t>(le(opt, ndirs_at, 4), 16));
  const auto table = read_at(pe_off + 24 + opt_size, sections * 40);
  if (table.size() < sections * 40) return Why("the section table is truncated");
  for (std::size_t i = 0; i < sections; ++i) {
    const std::size_t b = i * 40;
    const auto raw_name = table.substr(b, 8);
    layout.sections.push_back({static_cast<std::uint32_t>(le(table, b + 12, 4)), static_cast<std::uint32_t>(le(table, b + 8, 4)),
                               static_cast<std::uint32_t>(le(table, b + 20, 4)), static_cast<std::uint32_t>(le(table, b + 16, 4)),
                               raw_name.substr(0, raw_name.find('\0'))});
  }
  return layout;
}

// An import table's shape: fixed-size descriptors, the DLL name's RVA at `name_field`, ending with a
// zero descriptor; `table` and `entry` name it in errors.
struct ImportTable {
  std::size_t dir;
  std::size_t stride;
  std::size_t name_field;
  const char* table;
  const char* entry;
};

// the import directory: 20-byte descriptors, Name at +12
constexpr ImportTable k_imports{1, 20, 12, "import table", "an import"};
// the delay-load directory: 32-byte descriptors, DllNameRVA at +4
constexpr ImportTable k_delay_imports{13, 32, 4, "delay-load table", "a delay-load import"};

Expected<std::vector<std::string>, std::string> read_import_names(const PeLayout& pe, const ImportTable& t) {
  std::vector<std::string> names;
  const auto rva = pe.dir(t.dir).first;
  if (!rva) return names;
  const auto off = pe.to_offset(rva);
  if (!off) return Why(fmt::format("its {} is outside every section", t.table));
  for (std::size_t i = 0; i < 4096; ++i) {
    const auto d = pe.read_at(*off + i * t.stride, t.stride);
    if (d.size() < t.stride) return Why(fmt::format("its {} is truncated", t.table));
    if (d.find_first_not_of('\0') == std::string::npos) break;
    const auto n = pe.name_at(static_cast<std::uint32_t>(le(d, t.name_field, 4)));
    if (!n) return Why(fmt::format("{} names a DLL outside every section", t.entry));
    names.push_back(*n);
  }
  return names;
}

// One level of the resource tree at `dir_off` (from the resource section's start `base`): the entry
// with id `id` (the first entry when `id` is 0); its offset, and whether it is a directory.
std::optional<std::pair<std::uint32_t, bool>> resource_entry(const PeLayout& pe, std::uint64_t base, std::uint64_t dir_off, std::uint32_t id) {
  const auto h = pe.read_at(base + dir_off, 16);
  if (h.size() < 16) return std::nullopt;
  const auto n = std::min<std::uint64_t>(le(h, 12, 2) + le(h, 14, 2), 4096);
  for (std::uint64_t i = 0; i < n; ++i) {
    const auto e = pe.read_at(base + dir_off + 16 + i * 8, 8);
    if (e.size() < 8) return std::nullopt;
    const auto name = static_cast<std::uint32_t>(le(e, 0, 4));
    const auto to = static_cast<std::uint32_t>(le(e, 4, 4));
    if (id == 0 || (!(name & 0x80000000u) && name == id)) return std::pair{to & 0x7fffffffu, (to & 0x80000000u) != 0};
  }
  return std::nullopt;
}

// VS_VERSIONINFO: a header, L"VS_VERSION_INFO", padding, then VS_FIXEDFILEINFO (signature 0xFEEF04BD)
void read_fixed_file_info(const std::string& vi, PeImports& out) {
  for (std::size_t at4 = 0; at4 + 52 <= std::min<std::size_t>(vi.size(), 128); at4 += 4) {
    if (le(vi, at4, 4) != 0xFEEF04BDu) continue;
    auto dotted = [&](std::size_t ms_at) {
      const auto ms = le(vi, ms_at, 4), ls = le(vi, ms_at + 4, 4);
      return fmt::format("{}.{}.{}.{}", ms >> 16, ms & 0xffff, ls >> 16, ls & 0xffff);
    };
    out.file_version = dotted(at4 + 8);
    out.product_version = dotted(at4 + 16);
    return;
  }
}

// the resource directory: type RT_VERSION (16) -> first name -> first language -> data entry; a
// version resource that cannot be read is left out (only a misplaced table is an error)
Expected<void, std::string> read_version(const PeLayout& pe, PeImports& out) {
  const auto rva = pe.dir(2).first;
  if (!rva) return {};
  const auto base = pe.to_offset(rva);
  if (!base) return Why("its resource table is outside every section");
  auto at = resource_entry(pe, *base, 0, 16);
  if (at && at->second) at = resource_entry(pe, *base, at->first, 0);
  if (at && at->second) at = resource_entry(pe, *base, at->first, 0);
  if (!at || at->second) return {};
  const auto data_entry = pe.read_at(*base + at->first, 16);
  if (data_entry.size() != 16) return {};
  const auto data_off = pe.to_offset(static_cast<std::uint32_t>(le(data_entry, 0, 4)));
  const auto data_size = std::min<std::uint64_t>(le(data_entry, 4, 4), 4096);
  if (data_off && data_size >= 92) read_fixed_file_info(pe.read_at(*data_off, data_size), out);
  return {};
}

} // namespace

std::string pe_machine_name(std::uint16_t m) {
  switch (m) {
  case 0x8664: return "x64";
  case 0x14c: return "x86";
  case 0xAA64: return "arm64";
  default: return fmt::format("machine 0x{:04x}", m);
  }
}

namespace {

// The DOS and PE headers, then the layout: the one entry of both public readers
Expected<PeLayout, std::string> read_headers(const ReadAt& read_at, PeImports& out) {
  const auto dos = read_at(0, 64);
  if (dos.size() < 64 || dos[0] != 'M' || dos[1] != 'Z') return Why("it does not start with 'MZ'");
  const auto pe_off = le(dos, 60, 4);
  if (pe_off > (1u << 24)) return Why("its PE header offset is out of range");
  const auto hdr = read_at(pe_off, 24);
  if (hdr.size() < 24 || hdr.compare(0, 4, std::string("PE\0\0", 4)) != 0) return Why("the PE signature is missing");
  return read_layout(read_at, pe_off, hdr, out);
}

Error not_a_dll(const std::string& what, const std::string& why) {
  return Error{ErrorCode::archive_corrupt, fmt::format("'{}' is not a readable Windows DLL: {}", what, why),
               "the file is damaged or truncated (antivirus, an interrupted copy): reinstall it", what};
}

} // namespace

Result<PeImports> read_pe_imports(const ReadAt& read_at, const std::string& what) {
  auto bad = [&](const std::string& why) { return Unexpected<Error>(not_a_dll(what, why)); };
  PeImports out;
  const auto layout = read_headers(read_at, out);
  if (!layout) return bad(layout.error());
  auto imports = read_import_names(*layout, k_imports);
  if (!imports) return bad(imports.error());
  out.imports = std::move(*imports);
  auto delay_imports = read_import_names(*layout, k_delay_imports);
  if (!delay_imports) return bad(delay_imports.error());
  out.delay_imports = std::move(*delay_imports);
  if (const auto version = read_version(*layout, out); !version) return bad(version.error());
  return out;
}

Result<std::optional<FileRange>> find_pe_section(const ReadAt& read_at, const std::string& name, const std::string& what) {
  PeImports ignored;
  const auto layout = read_headers(read_at, ignored);
  if (!layout) return Unexpected<Error>(not_a_dll(what, layout.error()));
  for (const auto& s : layout->sections) {
    if (s.name != name) continue;
    const std::uint32_t size = s.vsize != 0 ? std::min(s.vsize, s.raw_size) : s.raw_size;
    return std::optional<FileRange>(FileRange{s.raw_offset, size});
  }
  return std::optional<FileRange>{};
}

Result<PeImports> read_pe_file(const std::string& path) {
  CUDNNCTL_TRY_ASSIGN(const auto reader, file_reader(path));
  return read_pe_imports(reader, path);
}

} // namespace cudnnctl
