#include "cudnnctl/env/linux_loader.hpp"

#include <sstream>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl {

std::vector<std::pair<std::string, std::string>> parse_ld_cache_entries(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto arrow = line.find("=> ");
    if (arrow == std::string::npos) continue;
    auto name = line.substr(0, line.find(" ("));
    name.erase(0, name.find_first_not_of(" \t"));
    out.emplace_back(name, line.substr(arrow + 3));
  }
  return out;
}

std::map<std::string, std::string> parse_ld_cache(const std::string& text) {
  std::map<std::string, std::string> out;
  for (auto& [name, path] : parse_ld_cache_entries(text)) out.emplace(std::move(name), std::move(path));  // first wins
  return out;
}

std::vector<std::string> ld_cache_paths(const std::string& text, const std::string& name) {
  std::vector<std::string> out;
  for (auto& [n, path] : parse_ld_cache_entries(text))
    if (n == name) out.push_back(std::move(path));
  return out;
}

Result<std::string> read_ld_cache_text() {
  static const char* const candidates[] = {"/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"};
  std::string tried;
  for (const char* ldconfig : candidates) {
    auto text = platform::run_capture({ldconfig, "-p"}, 30000);
    if (text) return text;
    tried += fmt::format("{}{}", tried.empty() ? "" : "; ", text.error().message);
  }
  return fail(ErrorCode::io, fmt::format("the ld.so cache could not be read with ldconfig -p ({})", tried),
              "ldconfig comes with glibc (Debian/Ubuntu: libc-bin); without it the cache's folders are left out of the search order");
}

std::vector<std::string> expand_origin(const std::string& runpath, const std::string& origin) {
  std::vector<std::string> out;
  for (auto d : split(runpath, ':')) {
    std::string dir(d);
    for (const std::string tag : {"${ORIGIN}", "$ORIGIN"})
      for (auto pos = dir.find(tag); pos != std::string::npos; pos = dir.find(tag, pos + origin.size())) dir.replace(pos, tag.size(), origin);
    if (!dir.empty()) out.push_back(dir);
  }
  return out;
}

std::string multiarch_triplet(Arch arch) {
  switch (arch) {
  case Arch::sbsa:
  case Arch::aarch64:
  case Arch::arm64: return "aarch64-linux-gnu";
  case Arch::ppc64le: return "powerpc64le-linux-gnu";
  case Arch::x86_64: break;
  }
  return "x86_64-linux-gnu";
}

std::vector<std::string> linux_default_dirs(const std::string& triplet) {
  return {"/lib/" + triplet, "/usr/lib/" + triplet, "/lib", "/usr/lib", "/lib64", "/usr/lib64"};
}

std::optional<LinuxHit> LinuxSearchOrder::find(const std::string& name, const std::vector<std::string>& runpath,
                                               const std::function<bool(const std::string&)>& exists) const {
  auto in = [&](const std::string& d) { return (d.ends_with('/') ? d : d + "/") + name; };
  for (const auto& d : ld_library_path)
    if (exists(in(d))) return LinuxHit{in(d), "LD_LIBRARY_PATH"};
  for (const auto& d : runpath)
    if (exists(in(d))) return LinuxHit{in(d), "RUNPATH"};
  if (const auto it = cache.find(name); it != cache.end()) return LinuxHit{it->second, "ld.so cache"};
  for (const auto& d : defaults)
    if (exists(in(d))) return LinuxHit{in(d), "default folder"};
  return std::nullopt;
}

} // namespace cudnnctl
