#include "cudnnctl/doctor/windows_offline.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/explain/signatures.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/windows_search_order.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {


// DLLs every Windows has in System32 (checked only when --system32 is given).
bool is_system_dll(const std::string& lower) {
  static const std::set<std::string> names{
      "kernel32.dll", "user32.dll",  "advapi32.dll", "ntdll.dll",   "msvcrt.dll",  "ws2_32.dll",   "shell32.dll",
      "ole32.dll",    "oleaut32.dll", "combase.dll", "shlwapi.dll", "bcrypt.dll",  "crypt32.dll",  "version.dll",
      "setupapi.dll", "dbghelp.dll", "psapi.dll",    "gdi32.dll",   "rpcrt4.dll",  "secur32.dll",  "winmm.dll",
      "imagehlp.dll", "cfgmgr32.dll", "dxgi.dll",    "d3d11.dll",   "nvcuda.dll",  "ucrtbase.dll", "iphlpapi.dll"};
  return names.count(lower) > 0;
}

bool is_vc_runtime(const std::string& lower) {
  return lower.starts_with("vcruntime140") || lower.starts_with("msvcp140") || lower.starts_with("concrt140") ||
         lower.starts_with("vcomp140");
}

// Folders searched in order, each listed once, names compared case-insensitively as Windows does.
class DllSearch {
public:
  explicit DllSearch(const FileSnapshot& files) : m_files(files) {}
  void add(const std::string& local, const std::string& via) {
    if (local.empty()) return;
    for (const auto& d : m_dirs)
      if (d.local == local) return;
    Dir d{local, via, {}};
    for (const auto& n : m_files.list(local)) d.names[to_lower_ascii(n)] = n;
    m_dirs.push_back(std::move(d));
  }
  struct Hit {
    std::string path;
    std::string via;
  };
  std::optional<Hit> find(const std::string& name) const {
    const auto lower = to_lower_ascii(name);
    for (const auto& d : m_dirs)
      if (const auto it = d.names.find(lower); it != d.names.end()) return Hit{join_path(d.local, it->second), d.via};
    return std::nullopt;
  }

private:
  struct Dir {
    std::string local, via;
    std::map<std::string, std::string> names;
  };
  const FileSnapshot& m_files;
  std::vector<Dir> m_dirs;
};

// The folders the imports are looked up in: the Windows loader's standard order (platform/windows_search_order)
// as a program sees it that loads the cuDNN DLL by its full path with LOAD_WITH_ALTERED_SEARCH_PATH (the cuDNN
// folder first) and has added the toolkit's bin folders; then System32 and that machine's PATH. Nothing of the
// application is known offline, so no application or current folder.
DllSearch search_for(const OfflineWindows& in) {
  platform::WindowsSearchPlaces places;
  places.dll_folder = in.dll_dir;
  places.added_folders = in.toolkit_bins;
  if (in.system32) places.system32 = *in.system32;
  std::map<std::string, std::string> as_written;  // a PATH entry's folder here -> as that machine's PATH writes it
  for (const auto& p : in.path)
    if (!p.local.empty() && p.local != "?") {
      places.path_entries.push_back(p.local);
      as_written.emplace(p.local, p.dir);
    }
  DllSearch s(in.files);
  for (const auto& f : platform::windows_search_order(places)) {
    using Step = platform::WindowsSearchStep;
    s.add(f.folder, f.step == Step::dll_folder     ? std::string("the cuDNN folder")
                    : f.step == Step::added_folder ? std::string("the toolkit")
                    : f.step == Step::path         ? "PATH " + as_written.at(f.folder)
                                                   : platform::step_name(f.step));
  }
  return s;
}

Result<PeImports> pe_in(const FileSnapshot& files, const std::string& path) {
  if (const auto* pe = files.pe_of(path)) return *pe;
  return fail(ErrorCode::io, fmt::format("{} was not read", path));
}

} // namespace

std::string windows_driver_version(const std::string& v) {
  const auto parts = split(v, '.');
  if (parts.size() != 4 || !all_digits(parts[2]) || !all_digits(parts[3]) || parts[3].size() > 4) return {};
  std::string digits = std::string(parts[2]) + std::string(4 - parts[3].size(), '0') + std::string(parts[3]);
  if (digits.size() < 5) return {};
  digits = digits.substr(digits.size() - 5);
  return std::to_string(parse_uint_or(digits.substr(0, 3), 0)) + "." + digits.substr(3);
}

Check windows_dll_versions(const std::string& dll_dir, unsigned major, const std::string& header_version, const FileSnapshot& files) {
  std::map<std::string, std::vector<std::string>> by_version;  // release (x.y.z) -> DLLs
  std::vector<std::string> unversioned, full;
  std::set<std::string> builds;
  std::size_t readable = 0, ours = 0;
  for (const auto& d : cudnn_dll_names(files.list(dll_dir))) {
    const auto c = classify_cudnn_file(d, Os::windows);
    if (!c || c->major != major) continue;
    ++ours;
    auto pe = pe_in(files, join_path(dll_dir, d));
    if (!pe) continue;  // files.dlls names unreadable DLLs
    ++readable;
    if (pe->file_version.empty() || !pe->file_version.starts_with(std::to_string(major) + ".")) {
      unversioned.push_back(d);
      continue;
    }
    const auto parts = split(pe->file_version, '.');
    by_version[fmt::format("{}.{}.{}", parts[0], parts[1], parts[2])].push_back(fmt::format("{} {}", d, pe->file_version));
    builds.insert(pe->file_version);
  }
  const std::string none =
      unversioned.empty() ? std::string()
                          : fmt::format("; {} carry no version resource (NVIDIA ships some that way)", fmt::join(unversioned, ", "));
  if (by_version.size() > 1) {
    std::vector<std::string> groups;
    for (const auto& [v, dlls] : by_version) groups.push_back(fmt::format("{}: {}", v, fmt::join(dlls, ", ")));
    return make_check("files.versions", 2, CheckStatus::fail, fmt::format("mixed cuDNN releases in {} (version resources): {}", dll_dir, fmt::join(groups, "; ")),
                "files.versions.mixed");
  }
  if (ours && !readable)
    return make_check("files.versions", 2, CheckStatus::skip,
                fmt::format("none of the {} cuDNN DLLs could be read (files.dlls names them): their versions are unknown", ours));
  if (by_version.empty())
    return make_check("files.versions", 2, CheckStatus::pass,
                fmt::format("no cuDNN DLL carries a version resource; the header gives {}", header_version.empty() ? "no version" : header_version));
  const auto& [release, dlls] = *by_version.begin();
  if (!header_version.empty() && release != header_version)
    return make_check("files.versions", 2, CheckStatus::fail,
                fmt::format("the DLLs are {} ({}) but cudnn_version.h says {}", release, fmt::join(builds, ", "), header_version), "files.versions.header");
  return make_check("files.versions", 2, CheckStatus::pass,
              fmt::format("{} DLLs report {} in their version resources{}{}", dlls.size(), fmt::join(builds, ", "),
                          header_version.empty() ? "" : ", as cudnn_version.h does", none));
}

namespace {

std::string searched_folders(const OfflineWindows& in) {
  std::vector<std::string> where{"the cuDNN folder", "the toolkit's bin"};
  if (in.system32) where.push_back("System32");
  if (!in.path.empty()) where.push_back("PATH");
  return fmt::format("{}", fmt::join(where, ", "));
}

} // namespace

std::vector<Check> windows_loader_needed(const OfflineWindows& in) {
  std::vector<Check> out;
  const auto search = search_for(in);
  std::vector<std::string> unresolved, vc_missing, unchecked;
  std::size_t resolved = 0, system = 0;
  std::vector<std::string> unreadable;
  for (const auto& d : cudnn_dll_names(in.files.list(in.dll_dir))) {
    auto pe = pe_in(in.files, join_path(in.dll_dir, d));
    if (!pe) {
      unreadable.push_back(d);  // files.dlls says why
      continue;
    }
    std::vector<std::pair<std::string, bool>> wanted;
    for (const auto& i : pe->imports) wanted.push_back({i, false});
    for (const auto& i : pe->delay_imports) wanted.push_back({i, true});
    for (const auto& [imp, delayed] : wanted) {
      const auto lower = to_lower_ascii(imp);
      if (lower.starts_with("api-ms-win-") || lower.starts_with("ext-ms-")) {
        ++system;  // API sets: Windows maps them itself
        continue;
      }
      if (search.find(imp)) {
        ++resolved;
        continue;
      }
      const std::string what = fmt::format("{} {} {}", d, delayed ? "delay-loads" : "needs", imp);
      if (!in.system32 && (is_system_dll(lower) || is_vc_runtime(lower))) {
        if (std::find(unchecked.begin(), unchecked.end(), imp) == unchecked.end()) unchecked.push_back(imp);
        continue;
      }
      (is_vc_runtime(lower) ? vc_missing : unresolved).push_back(what);
    }
  }
  const auto searched = searched_folders(in);
  if (!unreadable.empty())
    out.push_back(make_check("loader.needed", 3, CheckStatus::fail,
                       fmt::format("{} of the cuDNN DLLs are not readable DLLs, so their imports could not be checked: {}", unreadable.size(),
                                   fmt::join(unreadable, ", ")),
                       "files.dlls"));
  if (!unresolved.empty())
    out.push_back(make_check("loader.needed", 3, CheckStatus::fail,
                       fmt::format("not found in {}: {}", searched, fmt::join(unresolved, "; ")), "loader.needed.windows"));
  if (!vc_missing.empty())
    out.push_back(make_check("loader.needed", 3, CheckStatus::fail,
                       fmt::format("the Visual C++ runtime is missing from System32: {}", fmt::join(vc_missing, "; ")), "loader.needed.vcredist"));
  if (unresolved.empty() && vc_missing.empty() && unreadable.empty())
    out.push_back(make_check("loader.needed", 3, CheckStatus::pass,
                       fmt::format("all {} imports of the cuDNN DLLs resolve (in {}){}{}", resolved + system, searched,
                                   system ? fmt::format(", {} of them API sets Windows provides", system) : std::string(),
                                   unchecked.empty() ? std::string()
                                                     : fmt::format("; not checked without --system32: {}", fmt::join(unchecked, ", ")))));
  return out;
}

// what cuDNN opens by name at run time (LoadLibrary): cuBLASLt and NVRTC of the toolkit's CUDA major
std::vector<Check> windows_loader_runtime_deps(const OfflineWindows& in) {
  std::vector<Check> out;
  const auto search = search_for(in);
  const auto searched = searched_folders(in);
  std::vector<std::string> missing, found;
  for (const auto& [name, who] : cudnn_runtime_dependencies(Os::windows, in.cudnn_major, parse_uint_or(in.cuda_major, 0))) {
    if (const auto hit = search.find(name)) found.push_back(fmt::format("{} ({})", name, hit->via));
    else missing.push_back(fmt::format("{} (for {})", name, who));
  }
  if (!missing.empty())
    out.push_back(make_check("loader.runtime_deps", 3, CheckStatus::warn, fmt::format("not found in {}: {}", searched, fmt::join(missing, "; ")),
                       "loader.runtime_deps"));
  else if (!found.empty())
    out.push_back(make_check("loader.runtime_deps", 3, CheckStatus::pass, fmt::format("found: {}", fmt::join(found, ", "))));
  return out;
}

std::vector<Check> windows_offline_driver(const OfflineWindows& in, const std::string& min_driver) {
  std::vector<Check> out;
  if (!in.system32) {
    out.push_back(make_check("driver.library", 4, CheckStatus::skip,
                       "offline: that machine's System32 was not given (--system32 DIR), so its driver (nvcuda.dll) was not read"));
    return out;
  }
  DllSearch s(in.files);
  s.add(*in.system32, "System32");
  const auto hit = s.find("nvcuda.dll");
  if (!hit) {
    out.push_back(make_check("driver.library", 4, CheckStatus::skip, fmt::format("no NVIDIA driver on that machine: {} has no nvcuda.dll", *in.system32),
                       "driver.none.windows"));
    return out;
  }
  auto pe = pe_in(in.files, hit->path);
  if (!pe) {
    out.push_back(make_check("driver.library", 4, CheckStatus::fail, fmt::format("{}: {}", hit->path, pe.error().message), "driver.init"));
    return out;
  }
  const auto version = windows_driver_version(pe->file_version);
  out.push_back(make_check("driver.library", 4, CheckStatus::pass,
                     fmt::format("nvcuda.dll in System32, file version {}{}", pe->file_version.empty() ? "unknown" : pe->file_version,
                                 version.empty() ? "" : fmt::format(" (driver {})", version))));
  if (version.empty())
    out.push_back(make_check("driver.version", 4, CheckStatus::skip, "the driver version could not be read from nvcuda.dll's version resource"));
  else if (min_driver.empty())
    out.push_back(make_check("driver.version", 4, CheckStatus::pass, fmt::format("driver {}; the catalog has no Windows minimum for this cuDNN", version)));
  else if (compare_dotted(version, min_driver) < 0)
    out.push_back(make_check("driver.version", 4, CheckStatus::fail,
                       fmt::format("driver {} is older than {}, the minimum NVIDIA lists for this cuDNN on Windows", version, min_driver), "driver.version"));
  else
    out.push_back(make_check("driver.version", 4, CheckStatus::pass, fmt::format("driver {} >= {} (NVIDIA's Windows minimum)", version, min_driver)));
  return out;
}

} // namespace cudnnctl
