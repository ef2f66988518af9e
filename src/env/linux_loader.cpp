#include "cudnnctl/env/linux_loader.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/platform/host.hpp"
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

std::string ld_cache_text_under(const std::string& text, const std::string& system_root) {
  auto root = system_root;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  if (root == "/" || root.empty()) return text;
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (const auto arrow = line.find("=> /"); arrow != std::string::npos) line.insert(arrow + 3, root);
    out += line + "\n";
  }
  return out;
}

Result<std::string> read_ld_cache_text(const std::string& system_root) {
  if (platform::detect_host().os == Os::windows)  // no ld.so cache, and no ldconfig to start (under wine: a Linux program)
    return fail(ErrorCode::io, "Windows has no ld.so cache", "the Windows loader's search order is PATH and the application's folder");
  static const char* const candidates[] = {"/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"};
  std::string tried;
  const bool image = !system_root.empty() && system_root != "/";
  for (const char* ldconfig : candidates) {
    auto text = image ? platform::run_capture({ldconfig, "-r", system_root, "-p"}, 30000) : platform::run_capture({ldconfig, "-p"}, 30000);
    if (text) {
      log::info("ld.so cache: read with {} -p{} ({} bytes)", ldconfig, image ? " -r " + system_root : std::string(), text->size());
      return ld_cache_text_under(*text, system_root);
    }
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

OwnSearchPaths own_search_paths(const std::string& rpath, const std::string& runpath, const std::string& origin) {
  OwnSearchPaths own;
  if (!runpath.empty()) own.runpath = expand_origin(runpath, origin);
  else own.rpath = expand_origin(rpath, origin);
  return own;
}

LinuxSearchOrder LinuxSearchOrder::of(const platform::Environment& env, const std::string& ld_cache_text, const std::string& triplet,
                                      const std::string& cwd) {
  LinuxSearchOrder order;
  if (auto v = env.get("LD_LIBRARY_PATH"); v && !v->empty())
    for (auto d : split(*v, ':')) order.ld_library_path.emplace_back(d);
  order.cache_entries = parse_ld_cache_entries(ld_cache_text);
  for (const auto& [name, path] : order.cache_entries) order.cache.emplace(name, path);  // first wins
  order.defaults = linux_default_dirs(triplet);
  order.cwd = cwd;
  return order;
}

std::vector<std::string> LinuxSearchOrder::cache_dirs_for_name(const std::string& name) const {
  std::vector<std::string> dirs;
  const auto add = [&dirs](std::string d) {
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(std::move(d));
  };
  for (const auto& [n, path] : cache_entries)
    if (n == name) add(path.substr(0, path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/')));
  if (cache_entries.empty())  // a model built by hand: only the first entries are known
    if (const auto it = cache.find(name); it != cache.end()) add(it->second.substr(0, it->second.find_last_of('/')));
  return dirs;
}

std::vector<LinuxSearchStep> LinuxSearchOrder::steps(const OwnSearchPaths& own, const std::vector<std::string>& cache_dirs) const {
  std::vector<LinuxSearchStep> out;
  for (const auto& d : own.rpath) out.push_back({d, "RPATH", d});
  const auto from_cwd = [this](const std::string& d) { return cwd.empty() ? d : (cwd.ends_with('/') ? cwd : cwd + "/") + d; };
  for (const auto& d : ld_library_path) {
    if (d.empty()) out.push_back({cwd.empty() ? "." : cwd, "LD_LIBRARY_PATH (an empty entry: the current folder)", cwd.empty() ? "." : cwd});
    else if (d.front() != '/') out.push_back({d, "LD_LIBRARY_PATH (relative: from the current folder)", from_cwd(d)});
    else out.push_back({d, "LD_LIBRARY_PATH", d});
  }
  for (const auto& d : own.runpath) out.push_back({d, "RUNPATH", d});
  for (const auto& d : cache_dirs) out.push_back({d, "ld.so cache", d});
  for (const auto& d : defaults) out.push_back({d, "default folder", d});
  return out;
}

std::optional<LinuxHit> LinuxSearchOrder::find(const std::string& name, const OwnSearchPaths& own,
                                               const std::function<bool(const std::string&)>& exists) const {
  auto in = [&](const std::string& d) { return (d.ends_with('/') ? d : d + "/") + name; };
  for (const auto& step : steps(own, {})) {
    if (step.via == "ld.so cache" || step.via == "default folder") break;
    if (exists(in(step.resolved))) return LinuxHit{in(step.resolved), step.via.substr(0, step.via.find(" ("))};
  }
  if (const auto it = cache.find(name); it != cache.end()) return LinuxHit{it->second, "ld.so cache"};
  for (const auto& d : defaults)
    if (exists(in(d))) return LinuxHit{in(d), "default folder"};
  return std::nullopt;
}

} // namespace cudnnctl
