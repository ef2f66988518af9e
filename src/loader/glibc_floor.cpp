#include "cudnnctl/loader/glibc_floor.hpp"

#include <charconv>

#include <fmt/format.h>

#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace {

std::optional<std::vector<unsigned>> dotted(const std::string& s) {
  std::vector<unsigned> parts;
  std::size_t at = 0;
  while (at <= s.size()) {
    const auto dot = s.find('.', at);
    const auto end = dot == std::string::npos ? s.size() : dot;
    unsigned v = 0;
    const auto [p, ec] = std::from_chars(s.data() + at, s.data() + end, v);
    if (ec != std::errc() || p != s.data() + end || end == at || parts.size() >= 6) return std::nullopt;
    parts.push_back(v);
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  if (parts.empty()) return std::nullopt;
  return parts;
}

} // namespace

std::string SymbolVersion::text() const {
  std::string s = family + "_";
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? "." : "") + std::to_string(parts[i]);
  return s;
}

std::optional<SymbolVersion> parse_symbol_version(const std::string& name) {
  for (const char* family : {"GLIBCXX", "GLIBC", "CXXABI"}) {
    const std::string prefix = std::string(family) + "_";
    if (name.rfind(prefix, 0) != 0) continue;
    auto parts = dotted(name.substr(prefix.size()));
    if (!parts) return std::nullopt;
    return SymbolVersion{family, std::move(*parts)};
  }
  return std::nullopt;
}

int compare_versions(const std::vector<unsigned>& a, const std::vector<unsigned>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const unsigned x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

void LibraryFloor::add(const std::string& library, const std::vector<ElfDynamicInfo::VersionNeed>& needs) {
  ++libraries;
  for (const auto& need : needs) {
    auto v = parse_symbol_version(need.version);
    if (!v) continue;
    auto it = highest.find(v->family);
    if (it == highest.end() || compare_versions(it->second.version.parts, v->parts) < 0) {
      const std::string family = v->family;  // read before the move below (the right side is evaluated first)
      highest[family] = FloorItem{std::move(*v), library};
    }
  }
}

HostSymbolVersions host_versions_from(const std::optional<std::string>& glibc, const std::vector<std::string>& libstdcxx_defs,
                                      const std::string& libstdcxx_path) {
  HostSymbolVersions host;
  host.libstdcxx_path = libstdcxx_path;
  if (glibc)
    if (auto parts = dotted(*glibc)) host.highest["GLIBC"] = SymbolVersion{"GLIBC", std::move(*parts)};
  for (const auto& def : libstdcxx_defs) {
    auto v = parse_symbol_version(def);
    if (!v || v->family == "GLIBC") continue;
    auto it = host.highest.find(v->family);
    if (it == host.highest.end() || compare_versions(it->second.parts, v->parts) < 0) {
      const std::string family = v->family;
      host.highest[family] = std::move(*v);
    }
  }
  return host;
}

HostSymbolVersions detect_host_symbol_versions() {
  const std::string path = platform::loaded_library_path("libstdc++.so.6");
  std::vector<std::string> defs;
  if (!path.empty())
    if (auto elf = read_elf_file(path)) defs = elf->version_defs;
  return host_versions_from(platform::host_glibc_version(), defs, path);
}

std::vector<FloorShortfall> floor_shortfalls(const LibraryFloor& floor, const HostSymbolVersions& host) {
  std::vector<FloorShortfall> out;
  for (const auto& [family, item] : floor.highest) {
    const auto it = host.highest.find(family);
    if (it == host.highest.end()) continue;
    if (compare_versions(it->second.parts, item.version.parts) < 0) out.push_back({item, it->second});
  }
  return out;
}

std::string describe_floor(const LibraryFloor& floor) {
  std::string s;
  for (const char* family : {"GLIBC", "GLIBCXX", "CXXABI"}) {
    const auto it = floor.highest.find(family);
    if (it == floor.highest.end()) continue;
    if (!s.empty()) s += ", ";
    s += fmt::format("{} ({})", it->second.version.text(), it->second.library);
  }
  return s;
}

} // namespace cudnnctl
