// NVIDIA's Windows cuDNN installer's copies (contract/windows_installer.hpp), for files.windows_installer:
// <ProgramFiles>\NVIDIA\CUDNN\v9.x\bin\<cuda>\ (or its machine folder, x64 from 9.18), listed through the
// DoctorSystem seam on this Windows machine or on a mounted Windows tree, and that machine's PATH against them.
#include <algorithm>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/contract/windows_installer.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/env/path_list.hpp"

namespace cudnnctl {

namespace {

// A hostile or odd tree is read only this far: NVIDIA's has a few release and CUDA folders.
constexpr std::size_t k_installer_folders_max = 64;

std::vector<std::string> bounded_listing(DoctorSystem& sys, const std::string& dir) {
  auto names = sys.list_dir(dir);
  if (names.size() > k_installer_folders_max) names.resize(k_installer_folders_max);
  return names;
}

// The DLL folder of one CUDA folder: its machine folder (bin\12.9\x64) when that holds cuDNN, else itself.
std::optional<InstallerCopy> copy_in(DoctorSystem& sys, const std::string& release, const std::string& cuda, const std::string& dir,
                                     const std::string& local) {
  std::vector<std::pair<std::string, std::string>> candidates;
  for (const auto& m : windows_machines()) candidates.emplace_back(dir + "\\" + std::string(m.folder), join_path(local, std::string(m.folder)));
  candidates.emplace_back(dir, local);
  for (const auto& [win_dir, here] : candidates) {
    const auto names = cudnn_dll_names(bounded_listing(sys, here));
    const auto main = std::find_if(names.begin(), names.end(), [](const std::string& n) {
      const auto c = classify_cudnn_file(n, Os::windows);
      return c && c->main() && c->full_version.empty();
    });
    if (main == names.end()) continue;
    InstallerCopy c{release, cuda, win_dir, here, names, {}, false};
    if (const auto pe = sys.read_pe(join_path(here, *main))) c.version = pe->file_version;
    return c;
  }
  return std::nullopt;
}

}  // namespace

void gather_windows_installer(DoctorFacts& f, DoctorSystem& sys) {
  auto& in = f.installer;
  if (in.root_local.empty()) return;
  in.gathered = true;
  std::vector<std::string> path_keys;
  for (const auto& sd : f.win.path) path_keys.push_back(path_key(sd.dir, PathFlavor::windows));
  const auto on_path = [&](const std::string& dir) {
    return std::find(path_keys.begin(), path_keys.end(), path_key(dir, PathFlavor::windows)) != path_keys.end();
  };
  for (const auto& name : bounded_listing(sys, in.root_local)) {
    const auto release = installer_release_folder(name);
    if (!release) continue;
    const auto bin = in.root + "\\" + name + "\\bin";
    const auto bin_local = join_path(join_path(in.root_local, name), "bin");
    if (on_path(bin)) in.bin_on_path.push_back(bin);
    for (const auto& cuda : bounded_listing(sys, bin_local)) {
      if (!installer_cuda_folder(cuda)) continue;
      if (auto c = copy_in(sys, *release, cuda, bin + "\\" + cuda, join_path(bin_local, cuda))) {
        c->on_path = on_path(c->dir);
        in.copies.push_back(std::move(*c));
      }
    }
  }
  std::sort(in.copies.begin(), in.copies.end(), [](const InstallerCopy& a, const InstallerCopy& b) {
    const int r = compare_dotted(a.release, b.release);
    return r != 0 ? r < 0 : compare_dotted(a.cuda, b.cuda) < 0;
  });
}

}  // namespace cudnnctl
