// The refusal of what a package manager owns (owned_files.hpp).
#include "cudnnctl/install/owned_files.hpp"

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"
#include "cudnnctl/owner/owner_records.hpp"

namespace cudnnctl {

namespace {

Result<void> check_toolkit_place(const Toolkit& tk, const std::string& root, const std::string& action) {
  const std::string target = target_path(root, tk.root);
  if (tk.os == Os::linux_os)
    if (const auto why = system_territory(target))
      return fail(ErrorCode::system_toolkit, fmt::format("refusing to {} cuDNN in {}: {}", action, tk.root, *why),
                  "use a toolkit of its own, e.g. NVIDIA's /usr/local/cuda-X.Y (--cuda-path), and leave the system's "
                  "cuDNN to its package manager (docs/owners.md)",
                  tk.root);
  if (const auto place = windows_installer_place(tk.root))
    return fail(ErrorCode::system_toolkit,
                fmt::format("refusing to write into {}: it is NVIDIA's cuDNN {} installer folder", tk.root, place->release),
                "name the CUDA toolkit (CUDA_PATH) with --cuda-path; NVIDIA's installer folder is changed only by its "
                "own installer (Settings > Apps)",
                tk.root);
  return {};
}

} // namespace

Result<void> check_package_owners(const Toolkit& tk, const InstallFs& fs, const std::vector<std::string>& relative,
                                  const std::string& root, const std::string& action, bool whole_folders) {
  CUDNNCTL_TRY(check_toolkit_place(tk, root, action));
  std::vector<std::string> paths = relative;
  for (const auto& d : whole_folders ? tk.install_dirs() : std::vector<std::string>{})
    for (const auto& f : fs.list(tk.root + "/" + d))
      if (is_cudnn_release_file(f, tk.os)) paths.push_back(d + "/" + f);
  OwnerLookup lookup(root);
  for (const auto& rel : paths) {
    const std::string path = tk.root + "/" + rel;
    if (fs.entry(path) == FsEntry::missing) continue;
    const Owner o = lookup.owner_of(path);
    log::debug("{}: owner of {}: {}", action, path, describe(o));
    if (!o.foreign()) continue;
    return fail(ErrorCode::package_owned,
                fmt::format("refusing to {}: {} belongs to {} ({}); cudnnctl never writes or removes a package "
                            "manager's files, and --force does not change that",
                            action, path, describe(o), o.record),
                fmt::format("change it through its owner ({}), or install into a toolkit of its own (--cuda-path)",
                            removal_fix(o, path)),
                path);
  }
  return {};
}

} // namespace cudnnctl
