#pragma once
// The glibc / libstdc++ floor of a set of Linux libraries: the highest GLIBC_x.y, GLIBCXX_3.4.z and
// CXXABI_1.3.n symbol versions their version-needed tables ask for, set against what this host provides
// (glibc's own version; the GLIBCXX / CXXABI versions its libstdc++.so.6 defines). A library whose floor
// is above the host's fails to load with "version `GLIBC_2.xx' not found".
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/loader/elf_reader.hpp"

namespace cudnnctl {

/// "GLIBC_2.27" -> {"GLIBC", {2, 27}}; families GLIBC, GLIBCXX, CXXABI only (GLIBC_PRIVATE and others: nullopt).
struct SymbolVersion {
  std::string family;
  std::vector<unsigned> parts;
  std::string text() const;  // "GLIBC_2.27"
};
std::optional<SymbolVersion> parse_symbol_version(const std::string& name);
int compare_versions(const std::vector<unsigned>& a, const std::vector<unsigned>& b);

struct FloorItem {
  SymbolVersion version;  // the highest one needed in this family
  std::string library;    // the first library that needs it
};

/// Family -> highest version needed; add() one library at a time.
struct LibraryFloor {
  std::map<std::string, FloorItem> highest;
  std::size_t libraries = 0;
  void add(const std::string& library, const std::vector<ElfDynamicInfo::VersionNeed>& needs);
  bool empty() const { return highest.empty(); }
};

/// What this host provides: family -> highest version (GLIBC from the C library, GLIBCXX / CXXABI from
/// libstdc++.so.6's version definitions). A family missing here is unknown, never "too old".
struct HostSymbolVersions {
  std::map<std::string, SymbolVersion> highest;
  std::string libstdcxx_path;  // where the GLIBCXX versions were read
};

/// `glibc` like "2.36"; `libstdcxx_defs` the version names libstdc++.so.6 defines.
HostSymbolVersions host_versions_from(const std::optional<std::string>& glibc, const std::vector<std::string>& libstdcxx_defs,
                                      const std::string& libstdcxx_path);

/// This process's host: platform::host_glibc_version and the libstdc++.so.6 it loaded.
HostSymbolVersions detect_host_symbol_versions();

struct FloorShortfall {
  FloorItem needed;
  SymbolVersion host;
};

/// Every family whose floor is above the host's (families the host does not report are left out).
std::vector<FloorShortfall> floor_shortfalls(const LibraryFloor& floor, const HostSymbolVersions& host);

/// "GLIBC_2.27 (libcudnn_cnn.so.9), GLIBCXX_3.4.11 (libcudnn.so.9)".
std::string describe_floor(const LibraryFloor& floor);

} // namespace cudnnctl
