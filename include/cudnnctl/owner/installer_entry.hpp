#pragma once
// NVIDIA's Windows cuDNN installer as Windows' Apps list knows it: its entry under ...\CurrentVersion\Uninstall
// (platform/uninstall_entries.hpp) matched to a copy under ...\NVIDIA\CUDNN\v9.x, so the owner is named as the
// user sees it in Settings > Apps, with the installer's own uninstaller. The key's name is not public (owners.md):
// entries are matched by what they say, never by a GUID.
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/owner/owner.hpp"
#include "cudnnctl/platform/uninstall_entries.hpp"

namespace cudnnctl {

/// The entry of the installer's copy of release `release` ("9.1") under `root` (...\NVIDIA\CUDNN\v9.1; may be
/// empty): published by NVIDIA, named cuDNN, and best: installed at `root`; then installed in a folder above it
/// and naming the release; then without an install location, naming the release ("9.1" in "NVIDIA cuDNN 9.1" or
/// "9.1.0.70", never in "9.10"). nullopt when none does.
std::optional<platform::UninstallEntry> cudnn_installer_entry(const std::vector<platform::UninstallEntry>& entries,
                                                              const std::string& release, const std::string& root);

/// The installer's owner as its Apps entry names it: package = its display name, version = its display version,
/// record = the registry key, uninstaller = its UninstallString.
Owner windows_installer_owner(const std::string& release, const std::string& root, const platform::UninstallEntry& entry);

/// This machine's Apps list, read once per process (empty off Windows).
const std::vector<platform::UninstallEntry>& this_machine_uninstall_entries();

/// The owner of the installer's copy of `release` under `root` on this machine: with its Apps entry where this
/// machine's list has one, else by the folder alone.
Owner windows_installer_owner_here(const std::string& release, const std::string& root = {});

} // namespace cudnnctl
