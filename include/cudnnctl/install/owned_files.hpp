#pragma once
// Install and uninstall never touch what a package manager owns (docs/owners.md): a toolkit that is a system
// folder, or a cuDNN file in the folders an install writes to (each one is replaced or removed as stale) or in
// the receipt, that dpkg, rpm, pacman, conda, pip, Debian's nvidia-cudnn or NVIDIA's installer owns, is
// refused before anything is written. `--force` does not override it.
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/install/install_fs.hpp"

namespace cudnnctl {

/// install.system-toolkit for a toolkit under /usr (not /usr/local), /lib*, ... or NVIDIA's installer folder;
/// install.package-owned naming the first owned file, its package and its owner's command. `relative` are
/// toolkit-relative paths to check (a receipt's), and with `whole_folders` every cuDNN file in the toolkit's
/// install folders too (an install replaces or removes each); `action` is "install" or "uninstall".
Result<void> check_package_owners(const Toolkit& tk, const InstallFs& fs, const std::vector<std::string>& relative,
                                  const std::string& root, const std::string& action, bool whole_folders);

} // namespace cudnnctl
