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
};

} // namespace

std::string pe_machine_name(std::uint16_t m) {
  switch (m) {
  case 0x8664: return "x64";
  case 0x14c: return "x86";
  case 0xAA64: return "arm64";
  default: return fmt::format("machine 0x{:04x}", m);
  }
}

Result<PeImports> read_pe_imports(const ReadAt& read_at, const std::string& what) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}' is not a readable Windows DLL: {}", what, why),
                "the file is damaged or truncated (antivirus, an interrupted copy): reinstall it", what);
  };
  const auto dos = read_at(0, 64);
  if (dos.size() < 64 || dos[0] != 'M' || dos[1] != 'Z') return bad("it does not start with 'MZ'");
  const auto pe_off = le(dos, 60, 4);
  if (pe_off > (1u << 24)) return bad("its PE header offset is out of range");
  const auto hdr = read_at(pe_off, 24);
  if (hdr.size() < 24 || hdr.compare(0, 4, std::string("PE\0\0", 4)) != 0) return bad("the PE signature is missing");
  PeImports out;
  out.machine = static_cast<std::uint16_t>(le(hdr, 4, 2));
  const auto sections = static_cast<std::size_t>(le(hdr, 6, 2));
  const auto opt_size = static_cast<std::size_t>(le(hdr, 20, 2));
  out.is_dll = (le(hdr, 22, 2) & 0x2000) != 0;
  if (sections == 0 || sections > 96) return bad("its section count is out of range");
  if (opt_size < 96 || opt_size > 4096) return bad("its optional header has an odd size");
  const auto opt = read_at(pe_off + 24, opt_size);
  if (opt.size() < opt_size) return bad("the optional header is truncated");
  const auto magic = le(opt, 0, 2);
  if (magic != 0x20b && magic != 0x10b) return bad("unknown optional header magic");
  out.is_pe32_plus = magic == 0x20b;
  const std::size_t dirs_at = out.is_pe32_plus ? 112 : 96;
  const std::size_t ndirs_at = out.is_pe32_plus ? 108 : 92;
  if (opt.size() < ndirs_at + 4) return bad("the data directory count is missing");
  const auto ndirs = static_cast<std::size_t>(std::min<std::uint64_t>(le(opt, ndirs_at, 4), 16));
  auto dir = [&](std::size_t i) -> std::pair<std::uint32_t, std::uint32_t> {
    if (i >= ndirs || dirs_at + i * 8 + 8 > opt.size()) return {0, 0};
    return {static_cast<std::uint32_t>(le(opt, dirs_at + i * 8, 4)), static_cast<std::uint32_t>(le(opt, dirs_at + i * 8 + 4, 4))};
  };
  const auto table = read_at(pe_off + 24 + opt_size, sections * 40);
  if (table.size() < sections * 40) return bad("the section table is truncated");
  std::vector<Section> secs;
  for (std::size_t i = 0; i < sections; ++i) {
    const std::size_t b = i * 40;
    secs.push_back({static_cast<std::uint32_t>(le(table, b + 12, 4)), static_cast<std::uint32_t>(le(table, b + 8, 4)),
                    static_cast<std::uint32_t>(le(table, b + 20, 4)), static_cast<std::uint32_t>(le(table, b + 16, 4))});
  }
  auto to_offset = [&](std::uint32_t rva) -> std::optional<std::uint64_t> {
    for (const auto& s : secs) {
      const auto span = std::max(s.vsize, s.raw_size);
      if (rva >= s.vaddr && rva - s.vaddr < span && rva - s.vaddr < s.raw_size) return std::uint64_t{s.raw_offset} + (rva - s.vaddr);
    }
    return std::nullopt;
  };
  auto name_at = [&](std::uint32_t rva) -> std::optional<std::string> {
    const auto off = to_offset(rva);
    if (!off) return std::nullopt;
    const auto bytes = read_at(*off, 260);
    const auto end = bytes.find('\0');
    if (end == std::string::npos || end == 0) return std::nullopt;
    return bytes.substr(0, end);
  };
  // the import directory: 20-byte descriptors, Name at +12, ending with a zero descriptor
  if (const auto [rva, size] = dir(1); rva) {
    const auto off = to_offset(rva);
    if (!off) return bad("its import table is outside every section");
    for (std::size_t i = 0; i < 4096; ++i) {
      const auto d = read_at(*off + i * 20, 20);
      if (d.size() < 20) return bad("its import table is truncated");
      if (d.find_first_not_of('\0') == std::string::npos) break;
      const auto n = name_at(static_cast<std::uint32_t>(le(d, 12, 4)));
      if (!n) return bad("an import names a DLL outside every section");
      out.imports.push_back(*n);
    }
  }
  // the delay-load directory: 32-byte descriptors, DllNameRVA at +4
  if (const auto [rva, size] = dir(13); rva) {
    const auto off = to_offset(rva);
    if (!off) return bad("its delay-load table is outside every section");
    for (std::size_t i = 0; i < 4096; ++i) {
      const auto d = read_at(*off + i * 32, 32);
      if (d.size() < 32) return bad("its delay-load table is truncated");
      if (d.find_first_not_of('\0') == std::string::npos) break;
      const auto n = name_at(static_cast<std::uint32_t>(le(d, 4, 4)));
      if (!n) return bad("a delay-load import names a DLL outside every section");
      out.delay_imports.push_back(*n);
    }
  }
  // the resource directory: type RT_VERSION (16) -> first name -> first language -> data entry
  if (const auto [rva, size] = dir(2); rva) {
    const auto base = to_offset(rva);
    if (!base) return bad("its resource table is outside every section");
    // one level: the entry with this id (or the first entry when id is 0); its offset, and whether it is a directory
    auto entry = [&](std::uint64_t dir_off, std::uint32_t id) -> std::optional<std::pair<std::uint32_t, bool>> {
      const auto h = read_at(*base + dir_off, 16);
      if (h.size() < 16) return std::nullopt;
      const auto n = std::min<std::uint64_t>(le(h, 12, 2) + le(h, 14, 2), 4096);
      for (std::uint64_t i = 0; i < n; ++i) {
        const auto e = read_at(*base + dir_off + 16 + i * 8, 8);
        if (e.size() < 8) return std::nullopt;
        const auto name = static_cast<std::uint32_t>(le(e, 0, 4));
        const auto to = static_cast<std::uint32_t>(le(e, 4, 4));
        if (id == 0 || (!(name & 0x80000000u) && name == id)) return std::pair{to & 0x7fffffffu, (to & 0x80000000u) != 0};
      }
      return std::nullopt;
    };
    std::optional<std::pair<std::uint32_t, bool>> at = entry(0, 16);
    if (at && at->second) at = entry(at->first, 0);
    if (at && at->second) at = entry(at->first, 0);
    if (at && !at->second) {
      const auto data_entry = read_at(*base + at->first, 16);
      if (data_entry.size() == 16) {
        const auto data_off = to_offset(static_cast<std::uint32_t>(le(data_entry, 0, 4)));
        const auto data_size = std::min<std::uint64_t>(le(data_entry, 4, 4), 4096);
        if (data_off && data_size >= 92) {
          // VS_VERSIONINFO: a header, L"VS_VERSION_INFO", padding, then VS_FIXEDFILEINFO (signature 0xFEEF04BD)
          const auto vi = read_at(*data_off, data_size);
          for (std::size_t at4 = 0; at4 + 52 <= std::min<std::size_t>(vi.size(), 128); at4 += 4) {
            if (le(vi, at4, 4) != 0xFEEF04BDu) continue;
            auto dotted = [&](std::size_t ms_at) {
              const auto ms = le(vi, ms_at, 4), ls = le(vi, ms_at + 4, 4);
              return fmt::format("{}.{}.{}.{}", ms >> 16, ms & 0xffff, ls >> 16, ls & 0xffff);
            };
            out.file_version = dotted(at4 + 8);
            out.product_version = dotted(at4 + 16);
            break;
          }
        }
      }
    }
  }
  return out;
}

Result<PeImports> read_pe_file(const std::string& path) {
  auto reader = file_reader(path);
  if (!reader) return Unexpected<Error>(reader.error());
  return read_pe_imports(*reader, path);
}

} // namespace cudnnctl
