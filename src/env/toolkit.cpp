#include "cudnnctl/env/toolkit.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/loader/library_files.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {

std::string read_head(const fs::path& p, std::size_t limit = 1 << 20) { return read_text_head(p, limit).value_or(std::string()); }

// "12.4.1" -> "12.4"
std::string major_minor(const std::string& v) {
  const auto parts = split(v, '.');
  if (parts.size() < 2 || !all_digits(parts[0]) || !all_digits(parts[1])) return {};
  return std::string(parts[0]) + "." + std::string(parts[1]);
}

bool has_dll(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (is_dll_name(utf8_of(e.path().filename()))) return true;
  return false;
}

std::vector<std::string> default_roots(const platform::Environment& env) {
  std::vector<std::string> roots;
  std::error_code ec;
  if (platform::detect_host().os == Os::windows) {
    const auto pf = env.get("ProgramFiles").value_or("C:\\Program Files");
    const fs::path base = path_from_utf8(pf) / "NVIDIA GPU Computing Toolkit" / "CUDA";
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(base, ec))
      if (utf8_of(e.path().filename()).starts_with("v")) found.push_back(e.path());
    std::sort(found.begin(), found.end(), std::greater<>());
    for (const auto& f : found) roots.push_back(utf8_of(f));
    return roots;
  }
  roots.push_back("/usr/local/cuda");
  std::vector<std::string> versioned;
  for (const auto& e : fs::directory_iterator("/usr/local", ec))
    if (utf8_of(e.path().filename()).starts_with("cuda-")) versioned.push_back(utf8_of(e.path()));
  std::sort(versioned.begin(), versioned.end(), std::greater<>());
  roots.insert(roots.end(), versioned.begin(), versioned.end());
  roots.push_back("/opt/cuda");
  return roots;
}

} // namespace

Result<Toolkit> read_toolkit(const std::string& root, const std::string& found_by) {
  std::error_code ec;
  const fs::path r = path_from_utf8(root);
  if (!fs::is_directory(r, ec))
    return fail(ErrorCode::file_not_found, fmt::format("'{}' ({}) is not a folder", root, found_by),
                "give the CUDA toolkit's root folder, the one that holds bin/ and include/", root);
  Toolkit t;
  t.root = root;
  t.found_by = found_by;
  t.include_dir = "include";
  if (fs::exists(r / "version.json", ec)) {
    try {
      const auto j = nlohmann::json::parse(read_head(r / "version.json"));
      t.version = major_minor(j.at("cuda").at("version").get<std::string>());
      t.version_source = "version.json";
    } catch (const std::exception&) {
    }
  }
  if (t.version.empty() && fs::exists(r / "version.txt", ec)) {
    std::smatch m;
    const auto text = read_head(r / "version.txt", 4096);
    static const std::regex re(R"(CUDA Version (\d+\.\d+))");
    if (std::regex_search(text, m, re)) {
      t.version = m[1];
      t.version_source = "version.txt";
    }
  }
  if (t.version.empty() && fs::exists(r / "include" / "cuda.h", ec)) {
    std::smatch m;
    const auto text = read_head(r / "include" / "cuda.h");
    static const std::regex re(R"(#define\s+CUDA_VERSION\s+(\d+))");
    if (const auto parsed = std::regex_search(text, m, re) ? parse_uint(m[1].str()) : std::nullopt) {
      const auto v = *parsed;
      t.version = fmt::format("{}.{}", v / 1000, (v % 1000) / 10);
      t.version_source = "include/cuda.h";
    }
  }
  if (t.version.empty() && !fs::exists(r / "include" / "cuda.h", ec))
    return fail(ErrorCode::file_not_found,
                fmt::format("'{}' ({}) is not a CUDA toolkit: it has no version.json, version.txt or include/cuda.h", root, found_by),
                "give the CUDA toolkit's root folder, the one that holds bin/ and include/", root);

  // the first of bin/x64, bin/arm64, bin that holds a DLL (contract/layout's Windows machines)
  const auto dirs = windows_dll_dirs();
  const auto with_dll = std::find_if(dirs.begin(), dirs.end(), [&](const std::string& d) { return has_dll(r / path_from_utf8(d)); });
  const std::string dll_dir = with_dll == dirs.end() ? std::string() : *with_dll;
  bool windows = fs::exists(r / "bin" / "nvcc.exe", ec) || !dll_dir.empty();
  for (const auto& m : windows_machines()) windows = windows || fs::is_directory(r / path_from_utf8(windows_lib_dir(m)), ec);
  if (windows) {
    t.os = Os::windows;
    t.dll_dir = dll_dir.empty() ? "bin" : dll_dir;
    t.lib_dir = windows_lib_dir(windows_machine_of_dll_dir(t.dll_dir));
  } else {
    t.os = Os::linux_os;
    if (fs::exists(r / "lib64", ec)) t.lib_dir = "lib64";
    else if (fs::is_directory(r / "targets", ec)) {
      for (const auto& e : fs::directory_iterator(r / "targets", ec))
        if (fs::is_directory(e.path() / "lib", ec)) {
          t.lib_dir = "targets/" + utf8_of(e.path().filename()) + "/lib";
          break;
        }
    }
    if (t.lib_dir.empty()) t.lib_dir = "lib";
  }
  return t;
}

std::string Toolkit::runtime_dir() const {
  if (os != Os::windows) return lib_dir;
  return dll_dir.empty() ? std::string("bin") : dll_dir;
}

std::string Toolkit::runtime_library_dir() const { return utf8_of(path_from_utf8(root) / path_from_utf8(runtime_dir())); }

std::optional<unsigned> Toolkit::cuda_major() const { return parse_uint(major()); }

std::vector<std::string> Toolkit::install_dirs() const {
  std::vector<std::string> dirs = {include_dir, lib_dir};
  if (!dll_dir.empty()) dirs.push_back(dll_dir);
  if (os == Os::windows) dirs.push_back("bin");
  std::vector<std::string> out;
  for (auto& d : dirs)
    if (!d.empty() && std::find(out.begin(), out.end(), d) == out.end()) out.push_back(std::move(d));
  return out;
}

std::vector<std::string> windows_toolkit_dll_dirs(const std::string& root) {
  std::vector<std::string> out;
  for (auto d : windows_dll_dirs()) {
    std::replace(d.begin(), d.end(), '/', '\\');
    out.push_back(root + "\\" + d);
  }
  return out;
}

std::vector<Toolkit> find_toolkits(const platform::Environment& env, const std::optional<std::string>& cuda_path,
                                   std::vector<std::string>* notes, const std::optional<std::vector<std::string>>& roots) {
  std::vector<std::pair<std::string, std::string>> candidates;  // path, found by
  if (cuda_path) candidates.emplace_back(*cuda_path, "--cuda-path");
  if (auto v = env.get("CUDA_PATH")) candidates.emplace_back(*v, "CUDA_PATH");
  std::vector<std::string> versioned;
  for (const auto& n : env.names())
    if (n.starts_with("CUDA_PATH_V")) versioned.push_back(n);
  std::sort(versioned.begin(), versioned.end(), [](const std::string& a, const std::string& b) {
    auto key = [](const std::string& s) {
      auto rest = s.substr(11);
      std::replace(rest.begin(), rest.end(), '_', '.');
      return rest;
    };
    return compare_dotted(key(a), key(b)) > 0;
  });
  for (const auto& n : versioned) candidates.emplace_back(*env.get(n), n);
  if (auto v = env.get("CUDA_HOME")) candidates.emplace_back(*v, "CUDA_HOME");
  if (auto path = env.get("PATH")) {
    for (auto dir : split(*path, platform::path_list_separator())) {
      if (dir.empty()) continue;
      std::error_code ec;
      const fs::path d = path_from_utf8(dir);
      if (fs::exists(d / "nvcc", ec) || fs::exists(d / "nvcc.exe", ec)) {
        candidates.emplace_back(utf8_of(d.parent_path()), fmt::format("nvcc on PATH ({})", utf8_of(d)));
        break;
      }
    }
  }
  for (const auto& r : roots ? *roots : default_roots(env)) candidates.emplace_back(r, "default location");

  std::vector<Toolkit> out;
  std::vector<fs::path> seen;
  for (const auto& [path, by] : candidates) {
    std::error_code ec;
    if (!fs::exists(path_from_utf8(path), ec)) {
      if (notes && by != "default location") notes->push_back(fmt::format("{} names '{}', which does not exist", by, path));
      continue;
    }
    const auto canonical = fs::weakly_canonical(path_from_utf8(path), ec);
    if (std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;
    auto t = read_toolkit(path, by);
    log::debug("toolkit candidate {} ({}): {}", path, by, t ? fmt::format("CUDA {} from {}, {}", t->version, t->version_source, t->lib_dir) : t.error().message);
    if (!t) {
      if (notes) notes->push_back(t.error().message);
      continue;
    }
    seen.push_back(canonical);
    out.push_back(std::move(*t));
  }
  return out;
}

ToolkitChoice choose_toolkit(const std::vector<Toolkit>& toolkits, const std::optional<std::string>& cuda_major) {
  ToolkitChoice c;
  if (toolkits.empty()) {
    c.reason = "no CUDA toolkit was found (looked at --cuda-path, CUDA_PATH, CUDA_PATH_V*, CUDA_HOME, nvcc on PATH and the usual places)";
    return c;
  }
  if (toolkits.front().found_by == "--cuda-path") {
    c.toolkit = toolkits.front();
    c.reason = fmt::format("{} (CUDA {}) because --cuda-path names it", c.toolkit->root, c.toolkit->version);
    return c;
  }
  if (cuda_major) {
    for (const auto& t : toolkits)
      if (t.major() == *cuda_major) {
        c.toolkit = t;
        c.reason = fmt::format("{} (CUDA {}, found by {}): the first toolkit of CUDA {} that the archive needs", t.root, t.version,
                               t.found_by, *cuda_major);
        return c;
      }
    c.reason = fmt::format("none of the {} toolkits found is CUDA {}.x, which the archive needs", toolkits.size(), *cuda_major);
    return c;
  }
  c.toolkit = toolkits.front();
  c.reason = fmt::format("{} (CUDA {}) because {} names it first", c.toolkit->root, c.toolkit->version, c.toolkit->found_by);
  return c;
}

} // namespace cudnnctl
