#include "cudnnctl/archive/safety.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

bool is_device_name(std::string_view component) {
  const auto stem = to_lower_ascii(component.substr(0, component.find('.')));
  static constexpr std::array<std::string_view, 4> plain{"con", "prn", "aux", "nul"};
  for (auto d : plain)
    if (stem == d) return true;
  if (stem.size() == 4 && (stem.starts_with("com") || stem.starts_with("lpt")) && stem[3] >= '1' && stem[3] <= '9') return true;
  return false;
}

// Lexically resolves `target` relative to the folder of `link`; nullopt if it climbs above the root.
std::optional<std::string> resolve_inside(const std::string& link, const std::string& target) {
  std::vector<std::string> parts;
  for (auto p : split(link, '/')) parts.emplace_back(p);
  parts.pop_back();  // the link's own name
  std::string t = target;
  std::replace(t.begin(), t.end(), '\\', '/');
  for (auto p : split(t, '/')) {
    if (p.empty() || p == ".") continue;
    if (p == "..") {
      if (parts.empty()) return std::nullopt;
      parts.pop_back();
      continue;
    }
    parts.emplace_back(p);
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

} // namespace

std::uint64_t size_cap(std::optional<std::uint64_t> catalog_size) {
  const std::uint64_t eight_gib = 8ull << 30;
  if (!catalog_size) return eight_gib;
  return std::min(eight_gib, *catalog_size * 4);
}

std::string normalise_entry_path(std::string_view name) {
  std::string out;
  std::string n(name);
  std::replace(n.begin(), n.end(), '\\', '/');
  for (auto p : split(n, '/')) {
    if (p.empty() || p == ".") continue;
    out += (out.empty() ? "" : "/") + std::string(p);
  }
  return out;
}

Unexpected<Error> SafetyChecker::hostile(const std::string& entry, const std::string& why) const {
  return fail(ErrorCode::archive_hostile,
              fmt::format("refused '{}': the entry '{}' {}", m_policy.archive, entry, why),
              "nothing was written outside the staging folder. NVIDIA's archives never contain such entries: download the "
              "archive again from NVIDIA",
              m_policy.archive);
}

// The name as text: no absolute path, drive, UNC, '..', stream, forbidden character or device name;
// returns the normalised path.
Result<std::string> SafetyChecker::admit_name(const std::string& raw) const {
  if (raw.empty()) return hostile(raw, "has an empty name");
  std::string slashed = raw;
  std::replace(slashed.begin(), slashed.end(), '\\', '/');
  if (slashed.front() == '/') {
    if (slashed.size() > 1 && slashed[1] == '/') return hostile(raw, "is a UNC network path (\\\\server\\share)");
    return hostile(raw, "has an absolute path");
  }
  if (slashed.size() >= 2 && slashed[1] == ':' && ((slashed[0] >= 'A' && slashed[0] <= 'Z') || (slashed[0] >= 'a' && slashed[0] <= 'z')))
    return hostile(raw, "starts with a drive letter");
  for (auto comp : split(slashed, '/')) {
    if (comp == "..") return hostile(raw, "climbs out of the archive with '..'");
    if (comp.empty() || comp == ".") continue;
    if (comp.find(':') != std::string_view::npos) return hostile(raw, "names an NTFS alternate data stream or a drive (':')");
    for (char c : comp) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || c == '<' || c == '>' || c == '"' || c == '|' || c == '?' || c == '*')
        return hostile(raw, fmt::format("has a character that Windows forbids in file names (0x{:02X})", u));
    }
    if (is_device_name(comp)) return hostile(raw, fmt::format("uses the Windows device name '{}'", comp));
    if (comp.back() == '.' || comp.back() == ' ') return hostile(raw, "has a name component ending in a dot or space (Windows drops them)");
  }
  std::string path = normalise_entry_path(slashed);
  if (path.empty()) return hostile(raw, "names the archive's root itself");
  return path;
}

// Everything lies in the one top-level folder (the one the archive's name promises, when known).
Result<void> SafetyChecker::admit_top(const std::string& raw, const std::string& path, const ArchiveEntry& e) {
  const std::string top = path.substr(0, path.find('/'));
  if (!m_policy.expected_top.empty()) {
    if (top != m_policy.expected_top)
      return hostile(raw, fmt::format("lies outside the single top-level folder '{}/' that this archive's name promises", m_policy.expected_top));
  } else if (m_top.empty()) {
    m_top = top;
  } else if (top != m_top) {
    return hostile(raw, fmt::format("lies outside the archive's top-level folder '{}/'", m_top));
  }
  if (path == top && e.type != EntryType::directory) return hostile(raw, "is a file where the top-level folder should be");
  if (e.type == EntryType::other) return hostile(raw, "is a device, pipe or socket, not a file, folder or link");
  return {};
}

// The tree stays a tree: no path both a file and a folder, no duplicate or case-folded twin, links relative.
Result<void> SafetyChecker::admit_shape(const std::string& raw, const std::string& path, const ArchiveEntry& e) {
  for (auto slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    const auto parent = path.substr(0, slash);
    if (m_files.count(parent)) return hostile(raw, fmt::format("lies below '{}', which is a file in this archive", parent));
    m_dirs.insert(parent);
  }
  if (e.type == EntryType::directory) {
    if (m_files.count(path)) return hostile(raw, "is a folder and also a file in this archive");
    m_dirs.insert(path);
  } else if (m_dirs.count(path)) {
    return hostile(raw, "is a file (or link), but other members use it as a folder");
  }
  if (e.type != EntryType::directory) {
    if (!m_names.insert(path).second) return hostile(raw, "appears twice");
    const auto folded = to_lower_ascii(path);
    if (const auto [it, inserted] = m_folded.emplace(folded, path); !inserted)
      return hostile(raw, fmt::format("collides with '{}' on case-insensitive file systems (Windows, macOS)", it->second));
  }
  if (e.type == EntryType::symlink || e.type == EntryType::hardlink) {
    if (e.link_target.empty()) return hostile(raw, "is a link with an empty target");
    std::string t = e.link_target;
    std::replace(t.begin(), t.end(), '\\', '/');
    if (t.front() == '/' || (t.size() >= 2 && t[1] == ':')) return hostile(raw, fmt::format("is a link to the absolute path '{}'", e.link_target));
    m_links.push_back(e);
  }
  if (e.type == EntryType::file) m_files.insert(path);
  return {};
}

// No member, and not the members together, inflates like a bomb or past the cap.
Result<void> SafetyChecker::admit_size(const std::string& raw, const ArchiveEntry& e) {
  if (e.type != EntryType::file) return {};
  if (e.compressed_size > 0 && e.size > (1u << 20) &&
      static_cast<double>(e.size) / static_cast<double>(e.compressed_size) > m_policy.max_ratio)
    return fail(ErrorCode::archive_too_large,
                fmt::format("refused '{}': the entry '{}' inflates {} bytes from {} (ratio {:.0f}:1): a zip bomb", m_policy.archive, raw,
                            e.size, e.compressed_size, static_cast<double>(e.size) / static_cast<double>(e.compressed_size)),
                "NVIDIA's archives compress at most about 10:1; download the archive again from NVIDIA", m_policy.archive);
  m_total += e.size;
  if (m_policy.archive_bytes > 0 && m_total > (1u << 20) &&
      static_cast<double>(m_total) > static_cast<double>(m_policy.archive_bytes) * m_policy.max_ratio)
    return fail(ErrorCode::archive_too_large,
                fmt::format("refused '{}': its members inflate to more than {} bytes from a {}-byte archive (over {:.0f}:1, reached "
                            "at '{}'): a compression bomb",
                            m_policy.archive, m_total, m_policy.archive_bytes, m_policy.max_ratio, raw),
                "NVIDIA's archives compress at most about 10:1; download the archive again from NVIDIA", m_policy.archive);
  if (m_total > m_policy.max_total_size)
    return fail(ErrorCode::archive_too_large,
                fmt::format("refused '{}': its members declare more than {} bytes in total (the cap; reached at '{}')", m_policy.archive,
                            m_policy.max_total_size, raw),
                "the cap is 8 GiB, or 4x the catalog size of this archive; a larger archive is not a cuDNN release", m_policy.archive);
  return {};
}

Result<void> SafetyChecker::admit(ArchiveEntry& e) {
  const std::string raw = e.name;
  CUDNNCTL_TRY_ASSIGN(const std::string path, admit_name(raw));
  e.name = path;
  CUDNNCTL_TRY(admit_top(raw, path, e));
  CUDNNCTL_TRY(admit_shape(raw, path, e));
  return admit_size(raw, e);
}

Result<void> SafetyChecker::finish() {
  for (const auto& link : m_links) {
    if (link.type == EntryType::hardlink) {
      // tar hard-link targets are archive paths
      const auto target = normalise_entry_path(link.link_target);
      if (!m_files.count(target)) return hostile(link.name, fmt::format("is a hard link to '{}', which is not a file in this archive", link.link_target));
      continue;
    }
    const auto resolved = resolve_inside(link.name, link.link_target);
    const std::string root = m_policy.expected_top.empty() ? m_top : m_policy.expected_top;
    if (!resolved || (*resolved != root && !resolved->starts_with(root + "/")))
      return hostile(link.name, fmt::format("is a symbolic link to '{}', which points outside the archive's folder", link.link_target));
  }
  // every symbolic link ends, through any chain of links, at a file or folder of the archive
  std::map<std::string, std::string> next;
  for (const auto& link : m_links)
    if (link.type == EntryType::symlink) next[link.name] = *resolve_inside(link.name, link.link_target);
  for (const auto& [name, first] : next) {
    std::string at = first;
    for (std::size_t hops = 0; next.count(at); ++hops) {
      if (hops > next.size()) return hostile(name, "is part of a loop of symbolic links");
      at = next.at(at);
    }
    if (!m_files.count(at) && !m_dirs.count(at))
      return hostile(name, fmt::format("is a symbolic link to '{}', which is not in this archive (a dangling link)", at));
  }
  for (const auto& link : m_links) {
    const auto prefix = link.name + "/";
    for (const auto& name : m_names)
      if (name.starts_with(prefix)) return hostile(name, fmt::format("lies below the link '{}' (writing it would follow the link)", link.name));
  }
  return {};
}

Result<void> check_listing(ArchiveListing& listing, const SafetyPolicy& policy) {
  SafetyChecker checker(policy);
  for (auto& e : listing.entries)
    if (auto ok = checker.admit(e); !ok) return ok;
  return checker.finish();
}

} // namespace cudnnctl
