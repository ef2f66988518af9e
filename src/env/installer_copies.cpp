#include "cudnnctl/env/installer_copies.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/contract/windows_installer.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/loader/pe_reader.hpp"

namespace cudnnctl {

namespace {

// A hostile or odd tree is read only this far: NVIDIA's has a few release and CUDA folders.
constexpr std::size_t k_installer_folders_max = 64;

std::vector<std::string> bounded_listing(const InstallerListing& l, const std::string& dir) {
  auto names = l.list_dir(dir);
  if (names.size() > k_installer_folders_max) names.resize(k_installer_folders_max);
  return names;
}

// The DLL folder of one CUDA folder: its machine folder (bin\12.9\x64) when that holds cuDNN, else itself.
std::optional<InstallerCopy> copy_in(const InstallerListing& l, const std::string& release, const std::string& cuda, const std::string& dir,
                                     const std::string& local) {
  std::vector<std::pair<std::string, std::string>> candidates;
  for (const auto& m : windows_machines()) candidates.emplace_back(dir + "\\" + std::string(m.folder), join_path(local, std::string(m.folder)));
  candidates.emplace_back(dir, local);
  for (const auto& [win_dir, here] : candidates) {
    const auto names = cudnn_dll_names(bounded_listing(l, here));
    const auto main = std::find_if(names.begin(), names.end(), [](const std::string& n) {
      const auto c = classify_cudnn_file(n, Os::windows);
      return c && c->main() && c->full_version.empty();
    });
    if (main == names.end()) continue;
    return InstallerCopy{release, cuda, win_dir, here, names, l.file_version(join_path(here, *main)), false};
  }
  return std::nullopt;
}

}  // namespace

std::vector<InstallerCopy> list_installer_copies(const std::string& root, const std::string& root_local, const InstallerListing& listing,
                                                 const std::vector<std::string>& path_dirs, std::vector<std::string>* release_bins_on_path) {
  std::vector<InstallerCopy> out;
  if (root_local.empty()) return out;
  std::vector<std::string> keys;
  for (const auto& d : path_dirs) keys.push_back(path_key(d, PathFlavor::windows));
  const auto on_path = [&](const std::string& dir) { return std::find(keys.begin(), keys.end(), path_key(dir, PathFlavor::windows)) != keys.end(); };
  for (const auto& name : bounded_listing(listing, root_local)) {
    const auto release = installer_release_folder(name);
    if (!release) continue;
    const auto bin = root + "\\" + name + "\\bin";
    const auto bin_local = join_path(join_path(root_local, name), "bin");
    if (release_bins_on_path && on_path(bin)) release_bins_on_path->push_back(bin);
    for (const auto& cuda : bounded_listing(listing, bin_local)) {
      if (!installer_cuda_folder(cuda)) continue;
      if (auto c = copy_in(listing, *release, cuda, bin + "\\" + cuda, join_path(bin_local, cuda))) {
        c->on_path = on_path(c->dir);
        out.push_back(std::move(*c));
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const InstallerCopy& a, const InstallerCopy& b) {
    const int r = compare_dotted(a.release, b.release);
    return r != 0 ? r < 0 : compare_dotted(a.cuda, b.cuda) < 0;
  });
  return out;
}

std::string installer_root(const std::optional<std::string>& program_files) {
  return (program_files && !program_files->empty() ? *program_files : std::string("C:\\Program Files")) + "\\" +
         std::string(k_windows_installer_folder);
}

const InstallerCopy* fitting_installer_copy(const std::vector<InstallerCopy>& copies, const std::string& toolkit_cuda) {
  const InstallerCopy* best = nullptr;
  for (std::size_t first = 0, end = 0; first < copies.size(); first = end) {  // one release at a time, oldest first
    std::vector<std::string> folders;
    for (end = first; end < copies.size() && copies[end].release == copies[first].release; ++end) folders.push_back(copies[end].cuda);
    const auto i = fitting_cuda_folder(folders, toolkit_cuda);
    if (i && (copies[first + *i].on_path || !best || !best->on_path)) best = &copies[first + *i];
  }
  return best;
}

InstallerListing installer_listing_here() {
  namespace fs = std::filesystem;
  return {[](const std::string& dir) {
            std::vector<std::string> out;
            std::error_code ec;
            // bounded as it is read: a folder of a million names is not read whole
            for (fs::directory_iterator it(path_from_utf8(dir), ec), end; !ec && it != end && out.size() < 4 * k_installer_folders_max;
                 it.increment(ec))
              out.push_back(utf8_of(it->path().filename()));
            std::sort(out.begin(), out.end());
            return out;
          },
          [](const std::string& file) {
            const auto pe = read_pe_file(file);
            return pe ? pe->file_version : std::string();
          }};
}

} // namespace cudnnctl
