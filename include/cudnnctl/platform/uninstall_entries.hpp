#pragma once
// The programs Windows lists under Settings > Apps: the subkeys of
// Software\Microsoft\Windows\CurrentVersion\Uninstall in HKEY_LOCAL_MACHINE (64- and 32-bit views) and
// HKEY_CURRENT_USER, each with a DisplayName. Read only, as untrusted text. Empty elsewhere (posix/).
#include <string>
#include <vector>

namespace cudnnctl::platform {

struct UninstallEntry {
  std::string key;               // where it is: "HKLM\...\Uninstall\<subkey>" (HKCU for the user's)
  std::string display_name;      // "NVIDIA cuDNN 9.1"
  std::string display_version;   // may be empty
  std::string publisher;         // "NVIDIA Corporation"; may be empty
  std::string install_location;  // may be empty
  std::string uninstall_string;  // the command Apps runs to remove it; may be empty
};

/// Every entry with a DisplayName, HKLM's 64-bit view first, then its 32-bit view, then HKCU. Bounded: at most
/// 4096 subkeys a root, each value at most 32 KiB.
std::vector<UninstallEntry> uninstall_entries();

}  // namespace cudnnctl::platform
