#include "cudnnctl/loader/elf_reader.hpp"

#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

namespace {

constexpr std::uint32_t k_pt_load = 1, k_pt_dynamic = 2;
constexpr std::int64_t k_dt_null = 0, k_dt_needed = 1, k_dt_strtab = 5, k_dt_strsz = 10, k_dt_soname = 14, k_dt_rpath = 15,
                       k_dt_runpath = 29;

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
    const std::size_t b = i * phentsize;
    Segment s{};
    s.type = static_cast<std::uint32_t>(r.num(ph, b, 4));
    if (info.is_64) {
      s.offset = r.num(ph, b + 8, 8);
      s.vaddr = r.num(ph, b + 16, 8);
      s.filesz = r.num(ph, b + 32, 8);
    } else {
      s.offset = r.num(ph, b + 4, 4);
      s.vaddr = r.num(ph, b + 8, 4);
      s.filesz = r.num(ph, b + 16, 4);
    }
    if (s.type == k_pt_load) loads.push_back(s);
    if (s.type == k_pt_dynamic) dynamic = s;
  }
  if (!dynamic) return info;  // a static executable: nothing to resolve
  const std::size_t entry = info.is_64 ? 16 : 8;
  if (dynamic->filesz > (1u << 24) || dynamic->filesz % entry != 0) return bad("its dynamic section has an odd size");
  std::string dyn;
  if (!r.fetch(dynamic->offset, static_cast<std::size_t>(dynamic->filesz), dyn)) return bad("its dynamic section lies past the end of the file");

  std::uint64_t strtab_vaddr = 0, strsz = 0;
  std::optional<std::uint64_t> soname, runpath, rpath;
  std::vector<std::uint64_t> needed;
  for (std::size_t off = 0; off + entry <= dyn.size(); off += entry) {
    const auto tag = static_cast<std::int64_t>(r.num(dyn, off, entry / 2));
    const auto val = r.num(dyn, off + entry / 2, entry / 2);
    if (tag == k_dt_null) break;
    if (tag == k_dt_needed) needed.push_back(val);
    else if (tag == k_dt_strtab) strtab_vaddr = val;
    else if (tag == k_dt_strsz) strsz = val;
    else if (tag == k_dt_soname) soname = val;
    else if (tag == k_dt_runpath) runpath = val;
    else if (tag == k_dt_rpath) rpath = val;
  }
  if (needed.empty() && !soname && !runpath && !rpath) return info;
  // DT_STRTAB holds an address: find the loaded segment that maps it to a file offset
  std::optional<std::uint64_t> strtab_offset;
  for (const auto& s : loads)
    if (strtab_vaddr >= s.vaddr && strtab_vaddr - s.vaddr < s.filesz) strtab_offset = s.offset + (strtab_vaddr - s.vaddr);
  if (!strtab_offset) return bad("its string table is not inside any loaded segment");
  if (strsz == 0 || strsz > (1u << 26)) return bad("its string table has an odd size");
  std::string strtab;
  if (!r.fetch(*strtab_offset, static_cast<std::size_t>(strsz), strtab)) return bad("its string table lies past the end of the file");
  auto string_at = [&](std::uint64_t at) -> std::optional<std::string> {
    if (at >= strtab.size()) return std::nullopt;
    const auto end = strtab.find('\0', static_cast<std::size_t>(at));
    if (end == std::string::npos) return std::nullopt;
    return strtab.substr(static_cast<std::size_t>(at), end - static_cast<std::size_t>(at));
  };
  for (auto n : needed) {
    auto s = string_at(n);
    if (!s) return bad("a DT_NEEDED entry points outside the string table");
    info.needed.push_back(std::move(*s));
  }
  for (auto [slot, value] : {std::pair{&soname, &info.soname}, std::pair{&runpath, &info.runpath}, std::pair{&rpath, &info.rpath}}) {
    if (!*slot) continue;
    auto s = string_at(**slot);
    if (!s) return bad("a dynamic entry points outside the string table");
    *value = std::move(*s);
  }
  return info;
}

Result<ReadAt> file_reader(const std::string& path) {
  auto file = platform::ReadOnlyFile::open(path);
  if (!file) return Unexpected<Error>(file.error());
  auto shared = std::make_shared<platform::ReadOnlyFile>(std::move(*file));
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
  auto reader = file_reader(path);
  if (!reader) return Unexpected<Error>(reader.error());
  return read_elf_dynamic(*reader, path);
}

} // namespace cudnnctl
