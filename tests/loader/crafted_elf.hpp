#pragma once
// Builds small ELF64 little-endian shared objects in memory for the reader's tests: one PT_LOAD that maps
// the whole file at address 0, a PT_DYNAMIC, a string table, and optional version-needed / version-
// definition tables. Offsets can be broken on purpose to test the bounds checks.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cudnnctl::testing {

struct CraftedNeed {
  std::string file;
  std::vector<std::string> versions;
};

struct CraftedElf {
  std::uint16_t machine = 62;
  std::vector<std::string> needed;
  std::vector<CraftedNeed> verneed;
  std::vector<std::string> verdef;
  std::uint64_t verneednum_override = 0;  // nonzero: DT_VERNEEDNUM says this instead
  std::uint32_t first_aux_override = 0;   // nonzero: the first Verneed's vn_aux says this instead
  std::uint64_t gap_after_dynamic = 0;    // zero bytes between the dynamic section and the tables after it
  bool strings_last = false;              // the string table after the version tables (as in files patchelf moved it in)

  std::string build() const {
    std::string strtab(1, '\0');
    auto str = [&](const std::string& s) {
      const auto at = strtab.size();
      strtab += s;
      strtab += '\0';
      return static_cast<std::uint32_t>(at);
    };
    std::vector<std::uint32_t> needed_at;
    for (const auto& n : needed) needed_at.push_back(str(n));
    std::string vn;  // the version-needed table
    for (std::size_t i = 0; i < verneed.size(); ++i) {
      const auto& n = verneed[i];
      const auto file = str(n.file);
      std::string entry;
      put(entry, 1, 2);
      put(entry, n.versions.size(), 2);
      put(entry, file, 4);
      put(entry, i == 0 && first_aux_override ? first_aux_override : 16, 4);
      put(entry, i + 1 < verneed.size() ? 16 + 16 * n.versions.size() : 0, 4);
      for (std::size_t k = 0; k < n.versions.size(); ++k) {
        put(entry, 0, 4);
        put(entry, 0, 2);
        put(entry, static_cast<std::uint16_t>(2 + k), 2);
        put(entry, str(n.versions[k]), 4);
        put(entry, k + 1 < n.versions.size() ? 16 : 0, 4);
      }
      vn += entry;
    }
    std::string vd;  // the version-definition table: one Verdaux per Verdef
    for (std::size_t i = 0; i < verdef.size(); ++i) {
      put(vd, 1, 2);
      put(vd, i == 0 ? 1 : 0, 2);
      put(vd, i + 1, 2);
      put(vd, 1, 2);
      put(vd, 0, 4);
      put(vd, 20, 4);
      put(vd, i + 1 < verdef.size() ? 28 : 0, 4);
      put(vd, str(verdef[i]), 4);
      put(vd, 0, 4);
    }
    const std::uint64_t ph = 64, dyn_at = ph + 2 * 56;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> dyn;
    for (auto at : needed_at) dyn.push_back({1, at});
    const std::uint64_t dyn_size = (needed_at.size() + 2 + (vn.empty() ? 0 : 2) + (vd.empty() ? 0 : 2) + 1) * 16;
    const std::uint64_t first = dyn_at + dyn_size + gap_after_dynamic;
    const std::uint64_t vn_at = strings_last ? first : first + strtab.size(), vd_at = vn_at + vn.size();
    const std::uint64_t str_at = strings_last ? vd_at + vd.size() : first;
    dyn.push_back({5, str_at});
    dyn.push_back({10, strtab.size()});
    if (!vn.empty()) {
      dyn.push_back({0x6ffffffe, vn_at});
      dyn.push_back({0x6fffffff, verneednum_override ? verneednum_override : verneed.size()});
    }
    if (!vd.empty()) {
      dyn.push_back({0x6ffffffc, vd_at});
      dyn.push_back({0x6ffffffd, verdef.size()});
    }
    dyn.push_back({0, 0});
    const std::uint64_t total = first + strtab.size() + vn.size() + vd.size();
    std::string out;
    out += std::string("\x7F" "ELF\x02\x01\x01", 7) + std::string(9, '\0');
    put(out, 3, 2);        // e_type ET_DYN
    put(out, machine, 2);  // e_machine
    put(out, 1, 4);
    put(out, 0, 8);        // e_entry
    put(out, ph, 8);       // e_phoff
    put(out, 0, 8);        // e_shoff
    put(out, 0, 4);
    put(out, 64, 2);
    put(out, 56, 2);
    put(out, 2, 2);        // e_phnum
    put(out, 64, 2);
    put(out, 0, 2);
    put(out, 0, 2);
    segment(out, 1, 0, 0, total);
    segment(out, 2, dyn_at, dyn_at, dyn_size);
    for (auto [tag, val] : dyn) {
      put(out, tag, 8);
      put(out, val, 8);
    }
    out += std::string(gap_after_dynamic, '\0');
    return strings_last ? out + vn + vd + strtab : out + strtab + vn + vd;
  }

private:
  static void put(std::string& s, std::uint64_t v, int width) {
    for (int i = 0; i < width; ++i) s += static_cast<char>((v >> (8 * i)) & 0xFF);
  }
  static void segment(std::string& s, std::uint32_t type, std::uint64_t off, std::uint64_t vaddr, std::uint64_t size) {
    put(s, type, 4);
    put(s, 4, 4);
    put(s, off, 8);
    put(s, vaddr, 8);
    put(s, vaddr, 8);
    put(s, size, 8);
    put(s, size, 8);
    put(s, 8, 8);
  }
};

} // namespace cudnnctl::testing
