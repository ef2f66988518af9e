#include "cudnnctl/loader/elf_reader.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

namespace {

constexpr std::uint32_t k_pt_load = 1, k_pt_dynamic = 2;
constexpr std::int64_t k_dt_null = 0, k_dt_needed = 1, k_dt_strtab = 5, k_dt_strsz = 10, k_dt_soname = 14, k_dt_rpath = 15,
                       k_dt_runpath = 29;
constexpr std::int64_t k_dt_verdef = 0x6ffffffc, k_dt_verdefnum = 0x6ffffffd, k_dt_verneed = 0x6ffffffe, k_dt_verneednum = 0x6fffffff;
constexpr std::uint64_t k_max_version_entries = 4096;  // per table: real libraries have a few dozen

class Reader {
public:
  Reader(const ReadAt& read_at, bool le) : m_read(read_at), m_le(le) {}
  bool fetch(std::uint64_t offset, std::size_t n, std::string& out) const {
    out = m_read(offset, n);
    return out.size() == n;
  }
  std::uint64_t num(const std::string& bytes, std::size_t at, std::size_t width) const {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i) {
      const auto b = static_cast<std::uint8_t>(bytes[at + (m_le ? width - 1 - i : i)]);
      v = (v << 8) | b;
    }
    return v;
  }

private:
  const ReadAt& m_read;
  bool m_le;
};

struct Segment {
  std::uint32_t type;
  std::uint64_t offset, vaddr, filesz;
};

// The file offset of a virtual address, through the loaded segment that maps it.
std::optional<std::uint64_t> file_offset(const std::vector<Segment>& loads, std::uint64_t vaddr) {
  for (const auto& s : loads)
    if (vaddr >= s.vaddr && vaddr - s.vaddr < s.filesz) return s.offset + (vaddr - s.vaddr);
  return std::nullopt;
}

struct DynamicTags {
  std::uint64_t strtab_vaddr = 0, strsz = 0;
  std::optional<std::uint64_t> soname, runpath, rpath, verneed, verdef;
  std::uint64_t verneednum = 0, verdefnum = 0;
  std::vector<std::uint64_t> needed;
};

DynamicTags scan_dynamic(const Reader& r, const std::string& dyn, std::size_t entry) {
  DynamicTags t;
  for (std::size_t off = 0; off + entry <= dyn.size(); off += entry) {
    const auto tag = static_cast<std::int64_t>(r.num(dyn, off, entry / 2));
    const auto val = r.num(dyn, off + entry / 2, entry / 2);
    if (tag == k_dt_null) break;
    if (tag == k_dt_needed) t.needed.push_back(val);
    else if (tag == k_dt_strtab) t.strtab_vaddr = val;
    else if (tag == k_dt_strsz) t.strsz = val;
    else if (tag == k_dt_soname) t.soname = val;
    else if (tag == k_dt_runpath) t.runpath = val;
    else if (tag == k_dt_rpath) t.rpath = val;
    else if (tag == k_dt_verneed) t.verneed = val;
    else if (tag == k_dt_verneednum) t.verneednum = val;
    else if (tag == k_dt_verdef) t.verdef = val;
    else if (tag == k_dt_verdefnum) t.verdefnum = val;
  }
  return t;
}

// The NUL-terminated string at `at` of a string table; nothing when it starts or ends outside it.
std::optional<std::string> string_in(const std::string& strtab, std::uint64_t at) {
  if (at >= strtab.size()) return std::nullopt;
  const auto end = strtab.find('\0', static_cast<std::size_t>(at));
  if (end == std::string::npos) return std::nullopt;
  return strtab.substr(static_cast<std::size_t>(at), end - static_cast<std::size_t>(at));
}

// The version tables as read: offsets into the string table, named once the string table is read (a
// forward-only reader must take the tables and the string table in the order they lie in the file).
struct RawVersions {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> needs;  // (file, version) of each Elf_Vernaux
  std::vector<std::uint64_t> defs;                              // the name of each Elf_Verdef
};

// Elf_Verneed {vn_version:2, vn_cnt:2, vn_file:4, vn_aux:4, vn_next:4} chains Elf_Vernaux {vna_hash:4,
// vna_flags:2, vna_other:2, vna_name:4, vna_next:4}; the same 16-byte layouts in ELF32 and ELF64.
// Every entry is fetched on its own (16 bytes) and every count is bounded: the chains may point anywhere.
bool read_verneed(const Reader& r, std::uint64_t at, std::uint64_t count, RawVersions& out) {
  if (count > k_max_version_entries) return false;
  std::uint64_t total_aux = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string vn;
    if (!r.fetch(at, 16, vn)) return false;
    const auto cnt = r.num(vn, 2, 2), file = r.num(vn, 4, 4), aux = r.num(vn, 8, 4), next = r.num(vn, 12, 4);
    std::uint64_t aux_at = at + aux;
    for (std::uint64_t k = 0; k < cnt; ++k) {
      if (++total_aux > k_max_version_entries) return false;
      std::string va;
      if (!r.fetch(aux_at, 16, va)) return false;
      out.needs.emplace_back(file, r.num(va, 8, 4));
      const auto aux_next = r.num(va, 12, 4);
      if (aux_next == 0) break;
      aux_at += aux_next;
    }
    if (next == 0) break;
    at += next;
  }
  return true;
}

// Elf_Verdef {vd_version:2, vd_flags:2, vd_ndx:2, vd_cnt:2, vd_hash:4, vd_aux:4, vd_next:4}; its first
// Elf_Verdaux {vda_name:4, vda_next:4} names the version (the others name its parents).
bool read_verdef(const Reader& r, std::uint64_t at, std::uint64_t count, RawVersions& out) {
  if (count > k_max_version_entries) return false;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::string vd;
    if (!r.fetch(at, 20, vd)) return false;
    const auto cnt = r.num(vd, 6, 2), aux = r.num(vd, 12, 4), next = r.num(vd, 16, 4);
    if (cnt > 0) {
      std::string va;
      if (!r.fetch(at + aux, 8, va)) return false;
      out.defs.push_back(r.num(va, 0, 4));
    }
    if (next == 0) break;
    at += next;
  }
  return true;
}

// The string table and the version tables, read in the order they lie in the file (an archive member is
// read forwards; only its first megabytes are kept to go back to), then every version named. A string
// table after the version tables is real: NVIDIA's libcudnn_cnn_infer.so.8 (8.9.6) keeps .dynstr at its end.
std::optional<std::string> read_strings_and_versions(const Reader& r, const std::vector<Segment>& loads, const DynamicTags& t,
                                                     std::uint64_t strtab_at, std::string& strtab, ElfDynamicInfo& info) {
  std::optional<std::uint64_t> verneed_at, verdef_at;
  if (t.verneed && !(verneed_at = file_offset(loads, *t.verneed))) return "its version-needed table is malformed";
  if (t.verdef && !(verdef_at = file_offset(loads, *t.verdef))) return "its version-definition table is malformed";
  enum Part { strings, needs, defs };
  std::vector<std::pair<std::uint64_t, Part>> order{{strtab_at, strings}};
  if (verneed_at) order.emplace_back(*verneed_at, needs);
  if (verdef_at) order.emplace_back(*verdef_at, defs);
  std::sort(order.begin(), order.end());
  RawVersions raw;
  for (const auto& [at, part] : order) {
    if (part == strings && !r.fetch(at, static_cast<std::size_t>(t.strsz), strtab)) return "its string table lies past the end of the file";
    if (part == needs && !read_verneed(r, at, t.verneednum, raw)) return "its version-needed table is malformed";
    if (part == defs && !read_verdef(r, at, t.verdefnum, raw)) return "its version-definition table is malformed";
  }
  for (const auto& [file, version] : raw.needs) {
    auto f = string_in(strtab, file), v = string_in(strtab, version);
    if (!f || !v) return "its version-needed table is malformed";
    info.version_needs.push_back({std::move(*f), std::move(*v)});
  }
  for (const auto name : raw.defs) {
    auto d = string_in(strtab, name);
    if (!d) return "its version-definition table is malformed";
    info.version_defs.push_back(std::move(*d));
  }
  return std::nullopt;
}

// One program header (Elf32_Phdr / Elf64_Phdr) at `b` of the table: its type, file offset, address, size.
Segment read_segment(const Reader& r, const std::string& ph, std::size_t b, bool is_64) {
  Segment s{};
  s.type = static_cast<std::uint32_t>(r.num(ph, b, 4));
  if (is_64) {
    s.offset = r.num(ph, b + 8, 8);
    s.vaddr = r.num(ph, b + 16, 8);
    s.filesz = r.num(ph, b + 32, 8);
  } else {
    s.offset = r.num(ph, b + 4, 4);
    s.vaddr = r.num(ph, b + 8, 4);
    s.filesz = r.num(ph, b + 16, 4);
  }
  return s;
}

} // namespace

std::string elf_machine_name(std::uint16_t machine) {
  switch (machine) {
  case 62: return "x86_64";
  case 183: return "aarch64";
  case 21: return "ppc64le";
  case 3: return "i386";
  default: return fmt::format("machine {}", machine);
  }
}

Result<ElfDynamicInfo> read_elf_dynamic(const ReadAt& read_at, const std::string& what) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}' is not a readable ELF shared object: {}", what, why),
                "the file is damaged or not a Linux library: reinstall it", what);
  };
  const std::string ident = read_at(0, 64);
  if (ident.size() < 16 || ident.compare(0, 4, "\x7F" "ELF") != 0) return bad("it does not start with the ELF magic");
  ElfDynamicInfo info;
  if (ident[4] != 1 && ident[4] != 2) return bad("unknown ELF class");
  if (ident[5] != 1 && ident[5] != 2) return bad("unknown byte order");
  info.is_64 = ident[4] == 2;
  info.little_endian = ident[5] == 1;
  const std::size_t header_size = info.is_64 ? 64 : 52;
  if (ident.size() < header_size) return bad("the ELF header is truncated");
  const Reader r(read_at, info.little_endian);
  info.machine = static_cast<std::uint16_t>(r.num(ident, 18, 2));
  const std::uint64_t phoff = info.is_64 ? r.num(ident, 32, 8) : r.num(ident, 28, 4);
  const std::size_t phentsize = static_cast<std::size_t>(r.num(ident, info.is_64 ? 54 : 42, 2));
  const std::size_t phnum = static_cast<std::size_t>(r.num(ident, info.is_64 ? 56 : 44, 2));
  const std::size_t min_ph = info.is_64 ? 56 : 32;
  if (phnum == 0) return bad("it has no program headers");
  if (phentsize < min_ph || phnum > 4096) return bad("its program header table is malformed");
  std::string ph;
  if (!r.fetch(phoff, phentsize * phnum, ph)) return bad("its program header table lies past the end of the file");

  std::vector<Segment> loads;
  std::optional<Segment> dynamic;
  for (std::size_t i = 0; i < phnum; ++i) {
    const auto s = read_segment(r, ph, i * phentsize, info.is_64);
    if (s.type == k_pt_load) loads.push_back(s);
    if (s.type == k_pt_dynamic) dynamic = s;
  }
  if (!dynamic) return info;  // a static executable: nothing to resolve
  const std::size_t entry = info.is_64 ? 16 : 8;
  if (dynamic->filesz > (1u << 24) || dynamic->filesz % entry != 0) return bad("its dynamic section has an odd size");
  std::string dyn;
  if (!r.fetch(dynamic->offset, static_cast<std::size_t>(dynamic->filesz), dyn)) return bad("its dynamic section lies past the end of the file");

  const auto t = scan_dynamic(r, dyn, entry);
  if (t.needed.empty() && !t.soname && !t.runpath && !t.rpath && !t.verneed && !t.verdef) return info;
  // DT_STRTAB holds an address: find the loaded segment that maps it to a file offset
  const auto strtab_offset = file_offset(loads, t.strtab_vaddr);
  if (!strtab_offset) return bad("its string table is not inside any loaded segment");
  if (t.strsz == 0 || t.strsz > (1u << 26)) return bad("its string table has an odd size");
  std::string strtab;
  if (const auto why = read_strings_and_versions(r, loads, t, *strtab_offset, strtab, info)) return bad(*why);
  for (auto n : t.needed) {
    auto s = string_in(strtab, n);
    if (!s) return bad("a DT_NEEDED entry points outside the string table");
    info.needed.push_back(std::move(*s));
  }
  for (auto [slot, value] : {std::pair{&t.soname, &info.soname}, std::pair{&t.runpath, &info.runpath}, std::pair{&t.rpath, &info.rpath}}) {
    if (!*slot) continue;
    auto s = string_in(strtab, **slot);
    if (!s) return bad("a dynamic entry points outside the string table");
    *value = std::move(*s);
  }
  return info;
}

Result<std::optional<FileRange>> find_elf_section(const ReadAt& read_at, const std::string& name, const std::string& what) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}' is not a readable ELF file: {}", what, why),
                "the file is damaged or not a Linux library: reinstall it", what);
  };
  const std::string ident = read_at(0, 64);
  if (ident.size() < 52 || ident.compare(0, 4, "\x7F" "ELF") != 0) return bad("it does not start with the ELF magic");
  if ((ident[4] != 1 && ident[4] != 2) || (ident[5] != 1 && ident[5] != 2)) return bad("unknown ELF class or byte order");
  const bool is_64 = ident[4] == 2;
  if (is_64 && ident.size() < 64) return bad("the ELF header is truncated");
  const Reader r(read_at, ident[5] == 1);
  const std::uint64_t shoff = is_64 ? r.num(ident, 40, 8) : r.num(ident, 32, 4);
  const auto shentsize = static_cast<std::size_t>(r.num(ident, is_64 ? 58 : 46, 2));
  const auto shnum = static_cast<std::size_t>(r.num(ident, is_64 ? 60 : 48, 2));
  const auto shstrndx = static_cast<std::size_t>(r.num(ident, is_64 ? 62 : 50, 2));
  if (shoff == 0 || shnum == 0) return std::optional<FileRange>{};  // no section table (stripped to segments)
  if (shentsize < (is_64 ? 64u : 40u) || shentsize > 1024 || shstrndx >= shnum) return bad("its section header table is malformed");
  std::string table;
  if (!r.fetch(shoff, shentsize * shnum, table)) return bad("its section header table lies past the end of the file");
  // a section header: name (4), type (4), flags, address, offset, size (8 bytes each in ELF64, 4 in ELF32)
  const auto field = [&](std::size_t i, std::size_t at64, std::size_t at32) {
    return is_64 ? r.num(table, i * shentsize + at64, 8) : r.num(table, i * shentsize + at32, 4);
  };
  const auto names_at = field(shstrndx, 24, 16), names_size = field(shstrndx, 32, 20);
  if (names_size > (1u << 24)) return bad("its section name table has an odd size");
  std::string names;
  if (!r.fetch(names_at, static_cast<std::size_t>(names_size), names)) return bad("its section name table lies past the end of the file");
  constexpr std::uint32_t k_sht_nobits = 8;
  for (std::size_t i = 0; i < shnum; ++i) {
    const auto name_at = static_cast<std::size_t>(r.num(table, i * shentsize, 4));
    if (name_at >= names.size() || names.compare(name_at, name.size() + 1, name.c_str(), name.size() + 1) != 0) continue;
    if (r.num(table, i * shentsize + 4, 4) == k_sht_nobits) return std::optional<FileRange>{};
    const FileRange range{field(i, 24, 16), field(i, 32, 20)};
    if (range.offset + range.size < range.offset) return bad(fmt::format("its section {} has an impossible size", name));
    return std::optional<FileRange>(range);
  }
  return std::optional<FileRange>{};
}

Result<ReadAt> file_reader(const std::string& path) {
  CUDNNCTL_TRY_ASSIGN(auto file, platform::ReadOnlyFile::open(path));
  auto shared = std::make_shared<platform::ReadOnlyFile>(std::move(file));
  return ReadAt([shared](std::uint64_t offset, std::size_t n) {
    std::string out(n, '\0');
    std::size_t got = 0;
    while (got < n) {
      const auto r = shared->read_at(offset + got, out.data() + got, n - got);
      if (r <= 0) break;
      got += static_cast<std::size_t>(r);
    }
    out.resize(got);
    return out;
  });
}

Result<ElfDynamicInfo> read_elf_file(const std::string& path) {
  CUDNNCTL_TRY_ASSIGN(const auto reader, file_reader(path));
  return read_elf_dynamic(reader, path);
}

} // namespace cudnnctl
