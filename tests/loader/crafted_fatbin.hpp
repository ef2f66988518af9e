#pragma once
// Small CUDA fat binaries built in memory for the fat-binary reader's tests (the layout nvcc 13.0 writes:
// see include/cudnnctl/loader/fatbin_reader.hpp), and the smallest ELF64 and PE32+ files that carry one
// in a `.nv_fatbin` / `.nv_fatb` section. Fields can be broken on purpose to test the bounds checks.
#include <cstdint>
#include <string>
#include <vector>

namespace cudnnctl::testing {

// `width` bytes of `v`, little-endian; bytes past the eighth are zero (a shift by 64 or more is undefined)
inline void put_le(std::string& out, std::uint64_t v, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) out += i < 8 ? static_cast<char>((v >> (8 * i)) & 0xff) : '\0';
}

struct CraftedEntry {
  std::uint16_t kind = 2;        // 1 PTX, 2 SASS
  std::uint32_t arch = 75;
  std::uint64_t flags = 0x11;    // 64-bit, Linux host
  std::uint32_t header_size = 64;
  std::string payload = std::string(24, 'x');
  std::uint16_t isa_major = 9, isa_minor = 0;
  std::uint64_t payload_size_override = ~0ull;  // not ~0: the header says this instead
};

inline std::string crafted_entry(const CraftedEntry& e) {
  std::string h;
  put_le(h, e.kind, 2);
  put_le(h, 0x0101, 2);
  put_le(h, e.header_size, 4);
  put_le(h, e.payload_size_override != ~0ull ? e.payload_size_override : e.payload.size(), 8);
  put_le(h, (e.flags & 0xa000) ? e.payload.size() : 0, 4);
  put_le(h, e.header_size > 64 ? 0x40 : 0, 4);
  put_le(h, e.kind == 1 ? e.isa_minor : 8, 2);
  put_le(h, e.kind == 1 ? e.isa_major : 1, 2);
  put_le(h, e.arch, 4);
  put_le(h, 0, 8);
  put_le(h, e.flags, 8);
  put_le(h, 0, 8);
  put_le(h, (e.flags & 0xa000) ? e.payload.size() * 3 : 0, 8);
  h.resize(e.header_size, '\0');
  return h + e.payload;
}

/// A container: its 16-byte header, then the entries.
inline std::string crafted_container(const std::vector<CraftedEntry>& entries, std::uint64_t body_size_override = ~0ull) {
  std::string body;
  for (const auto& e : entries) body += crafted_entry(e);
  std::string c;
  put_le(c, 0xBA55ED50u, 4);
  put_le(c, 1, 2);
  put_le(c, 16, 2);
  put_le(c, body_size_override != ~0ull ? body_size_override : body.size(), 8);
  return c + body;
}

/// An ELF64 little-endian file: its header, the section data, the section names and a section table of
/// a null section, `section_name` holding `data`, and .shstrtab.
inline std::string crafted_elf_with_section(const std::string& section_name, const std::string& data) {
  const std::string names = std::string("\0", 1) + section_name + '\0' + ".shstrtab" + '\0';
  const std::uint64_t data_at = 64, names_at = data_at + data.size(), table_at = (names_at + names.size() + 7) / 8 * 8;
  std::string f = "\x7F" "ELF";
  f += '\x02';  // ELF64
  f += '\x01';  // little-endian
  f += '\x01';
  f.resize(16, '\0');
  put_le(f, 3, 2);   // ET_DYN
  put_le(f, 62, 2);  // x86_64
  put_le(f, 1, 4);
  put_le(f, 0, 8);   // entry
  put_le(f, 0, 8);   // phoff
  put_le(f, table_at, 8);
  put_le(f, 0, 4);
  put_le(f, 64, 2);  // ehsize
  put_le(f, 56, 2);
  put_le(f, 0, 2);   // phnum
  put_le(f, 64, 2);  // shentsize
  put_le(f, 3, 2);   // shnum
  put_le(f, 2, 2);   // shstrndx
  f += data + names;
  f.resize(table_at, '\0');
  const auto section = [&](std::uint32_t name, std::uint32_t type, std::uint64_t at, std::uint64_t size) {
    put_le(f, name, 4);
    put_le(f, type, 4);
    put_le(f, 0, 8);
    put_le(f, 0, 8);
    put_le(f, at, 8);
    put_le(f, size, 8);
    put_le(f, 0, 8);  // link, info
    put_le(f, 8, 8);
    put_le(f, 0, 8);
  };
  section(0, 0, 0, 0);
  section(1, 1, data_at, data.size());
  section(static_cast<std::uint32_t>(section_name.size() + 2), 3, names_at, names.size());
  return f;
}

/// A PE32+ DLL: DOS header, PE header, an optional header with no data directories in use, and one
/// section `section_name` holding `data` (raw size rounded to 512, virtual size exact).
inline std::string crafted_pe_with_section(const std::string& section_name, const std::string& data) {
  std::string f = "MZ";
  f.resize(60, '\0');
  put_le(f, 64, 4);
  f += std::string("PE\0\0", 4);
  put_le(f, 0x8664, 2);
  put_le(f, 1, 2);  // one section
  put_le(f, 0, 12);
  put_le(f, 240, 2);  // optional header size
  put_le(f, 0x2022, 2);
  std::string opt;
  put_le(opt, 0x20b, 2);
  opt.resize(108, '\0');
  put_le(opt, 16, 4);  // data directories
  opt.resize(240, '\0');
  f += opt;
  const std::uint32_t raw_at = 512, raw_size = static_cast<std::uint32_t>((data.size() + 511) / 512 * 512);
  std::string name = section_name;
  name.resize(8, '\0');
  f += name;
  put_le(f, data.size(), 4);  // virtual size
  put_le(f, 0x1000, 4);       // virtual address
  put_le(f, raw_size, 4);
  put_le(f, raw_at, 4);
  put_le(f, 0, 12);
  put_le(f, 0x40000040, 4);
  f.resize(raw_at, '\0');
  f += data;
  f.resize(raw_at + raw_size, '\0');
  return f;
}

} // namespace cudnnctl::testing
