#include "cudnnctl/env/shadow_scan.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/owner/installer_entry.hpp"
#include "cudnnctl/env/linux_loader.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/platform/windows_search_order.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"
#include "cudnnctl/owner/owner_records.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

std::vector<std::string> parse_ldconfig_cache(const std::string& text) {
  // in cache order: the folders of the entries naming libcudnn
  std::vector<std::string> dirs;
  for (const auto& [name, path] : parse_ld_cache_entries(text)) {
    if (name.find("libcudnn") == std::string::npos) continue;
    const auto dir = utf8_of(path_from_utf8(path).parent_path());
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
  }
  return dirs;
}

std::vector<SearchDir> linux_search_order(const platform::Environment& env, const OwnSearchPaths& own,
                                          const std::vector<std::string>& ld_cache_dirs, const std::string& multiarch) {
  std::error_code ec;
  const auto model = LinuxSearchOrder::of(env, "", multiarch.empty() ? multiarch_triplet(platform::detect_host().arch) : multiarch,
                                          fs::current_path(ec).string());
  std::vector<SearchDir> order;
  for (auto& step : model.steps(own, ld_cache_dirs))
    order.push_back({step.dir, step.via, step.resolved == step.dir ? std::string() : step.resolved});
  return order;
}

std::vector<SearchDir> windows_search_order(const platform::Environment& env, const std::string& app_dir, const std::string& current_folder) {
  platform::WindowsSearchPlaces places;
  places.application_folder = app_dir;
  places.windows_folder = env.get("SystemRoot").value_or(env.get("windir").value_or("C:\\Windows"));
  places.current_folder = current_folder;
  const auto lookup = [&env](const std::string& n) { return env.get(n); };
  if (auto v = env.get("PATH"))
    for (const auto& d : split_path_list(*v, PathFlavor::windows))
      if (!d.empty()) places.path_entries.push_back(expand_windows_vars(d, lookup));
  std::vector<SearchDir> order;
  for (const auto& f : platform::windows_search_order(places)) order.push_back({f.folder, platform::step_name(f.step)});
  return order;
}

std::string copy_version(const std::string& dir, const std::string& main_file, unsigned major) {
  std::error_code ec;
  fs::path p = path_from_utf8(dir) / main_file;
  for (int hops = 0; hops < 8 && fs::is_symlink(p, ec); ++hops) {
    const auto t = fs::read_symlink(p, ec);
    p = t.is_absolute() ? t : p.parent_path() / t;
  }
  if (to_lower_ascii(utf8_of(p.extension())) == ".dll")
    if (auto pe = read_pe_file(utf8_of(p)); pe && !pe->file_version.empty() && pe->file_version.starts_with(std::to_string(major) + "."))
      return pe->file_version;
  static const std::regex full(R"(\.so\.(\d+\.\d+\.\d+)$)");
  std::smatch m;
  const auto name = utf8_of(p.filename());
  if (std::regex_search(name, m, full)) return m[1];
  for (const auto& header : {path_from_utf8(dir) / ".." / "include" / "cudnn_version.h", path_from_utf8(dir) / ".." / ".." / "include" / "cudnn_version.h"}) {
    const auto text = read_text_head(header, 1 << 20);
    if (!text) continue;
    if (const auto v = parse_version_header(*text); v && v->major == major) return v->text();
  }
  return fmt::format("{}.x", major);
}

std::string host_library_machine(LoaderFlavor flavor) {
  const auto arch = platform::detect_host().arch;
  const bool arm = arch == Arch::arm64 || arch == Arch::aarch64 || arch == Arch::sbsa;
  if (flavor == LoaderFlavor::windows) return pe_machine_name(windows_machine(arm ? Arch::arm64 : Arch::x86_64).pe_machine);
  return arm ? "aarch64" : arch == Arch::ppc64le ? "ppc64le" : "x86_64";
}

namespace {
// The machine a library file was built for, as its loader names it; "" when the file cannot be read as one.
std::string library_machine(const std::string& path, LoaderFlavor flavor) {
  if (flavor == LoaderFlavor::windows) {
    const auto pe = read_pe_file(path);
    return pe && pe->machine ? pe_machine_name(pe->machine) : std::string();
  }
  const auto elf = read_elf_file(path);
  return elf && elf->machine ? elf_machine_name(elf->machine) : std::string();
}
} // namespace

// One folder under two names (CUDA's lib64 -> targets/x86_64-linux/lib) is one folder: Linux folders are compared
// by their real path where they exist here.
static std::string same_folder_key(const std::string& dir, PathFlavor flavor) {
  if (flavor == PathFlavor::posix) {
    std::error_code ec;
    if (const auto real = fs::canonical(path_from_utf8(dir), ec); !ec) return path_key(utf8_of(real), flavor);
  }
  return path_key(dir, flavor);
}

ShadowReport scan_cudnn_copies(const std::vector<SearchDir>& order, LoaderFlavor flavor, unsigned major, const std::string& installed_dir,
                               const std::string& process_machine) {
  const auto expected_machine = process_machine.empty() ? host_library_machine(flavor) : process_machine;
  ShadowReport r;
  r.order = order;
  const auto pflavor = flavor == LoaderFlavor::windows ? PathFlavor::windows : PathFlavor::posix;
  const auto folder_key = [pflavor](const std::string& dir) { return same_folder_key(dir, pflavor); };
  const auto installed_key = installed_dir.empty() ? std::string() : folder_key(installed_dir);
  const auto os = flavor == LoaderFlavor::windows ? Os::windows : Os::linux_os;
  std::vector<std::string> seen;
  OwnerLookup owners(package_root());
  for (const auto& sd : order) {
    const auto key = folder_key(sd.where());
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    seen.push_back(key);
    std::error_code ec;
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(path_from_utf8(sd.where()), ec)) names.push_back(utf8_of(e.path().filename()));
    std::sort(names.begin(), names.end());
    std::vector<CudnnFile> loader_names;  // the folder's sub-libraries by the names the loader opens
    for (const auto& n : names)
      if (auto file = classify_cudnn_file(n, os); file && file->full_version.empty()) loader_names.push_back(*file);
    for (const auto& n : names) {
      const auto file = classify_cudnn_file(n, os);
      if (!file || !file->main() || !file->full_version.empty()) continue;
      CudnnCopy c;
      c.dir = sd.dir;
      c.via = sd.via;
      c.major = file->major;
      c.main_file = n;
      c.version = copy_version(sd.where(), n, c.major);
      c.installed = !installed_key.empty() && key == installed_key;
      c.machine = library_machine(utf8_of(path_from_utf8(sd.where()) / path_from_utf8(n)), flavor);
      c.other_machine = !c.machine.empty() && c.machine != expected_machine;
      for (const auto& l : loader_names)
        if (l.major == c.major) c.sub_libraries.push_back(l.sub_library);
      c.owner = owners.owner_of(utf8_of(path_from_utf8(sd.where()) / path_from_utf8(n)));
      if (!c.owner.owned())  // a Windows folder seen from here: NVIDIA's installer folder by its name
        if (const auto place = windows_installer_place(sd.dir))
          c.owner = windows_installer_owner_here(place->release, place->root);
      if (c.other_machine)
        r.explanations.push_back(fmt::format("{} (via {}) holds a cuDNN {} built for {}: the loader skips it in a {} process (another "
                                             "architecture), so it is no candidate",
                                             c.dir, c.via, c.version, c.machine, expected_machine));
      r.copies.push_back(std::move(c));
    }
  }
  std::optional<std::size_t> winner, installed;
  for (std::size_t i = 0; i < r.copies.size(); ++i) {
    if (r.copies[i].major != major || r.copies[i].other_machine) continue;
    if (!winner) winner = i;
    if (r.copies[i].installed && !installed) installed = i;
  }
  if (winner) r.copies[*winner].wins = true;
  if (!installed_dir.empty()) {
    if (!installed) {
      std::string instead;
      if (winner) {  // a package manager's copy is named with its owner and the owner's own removal
        const auto& w = r.copies[*winner];
        instead = w.owner.owned() ? fmt::format(" and load cuDNN {} from {} ({}) instead; or remove that copy: {}", w.version, w.dir, describe(w.owner),
                                                removal_fix(w.owner, w.dir + "/" + w.main_file))
                                  : fmt::format(" and load cuDNN {} from {} instead", w.version, w.dir);
      }
      r.explanations.push_back(fmt::format("the installed cuDNN {} in {} is not on the search path: programs will not find it{}", major,
                                           installed_dir, instead));
    } else {
      for (std::size_t i = 0; i < *installed; ++i) {
        const auto& c = r.copies[i];
        if (c.major != major || c.other_machine) continue;
        r.explanations.push_back(fmt::format("{} (via {}) holds cuDNN {} ({}); it comes before the installed copy in {}, so programs load "
                                             "it instead. Remove that copy ({}), or put {} first",
                                             c.dir, c.via, c.version, describe(c.owner), installed_dir,
                                             removal_fix(c.owner, c.dir + "/" + c.main_file), installed_dir));
      }
    }
  }
  return r;
}

} // namespace cudnnctl
