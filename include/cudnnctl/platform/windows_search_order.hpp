#pragma once
// The Windows loader's search order for a DLL asked for by name, as one model. `cudnnctl path` and the doctor
// scan it for cuDNN copies (env/shadow_scan), the offline doctor resolves a Windows toolkit's imports along it
// (doctor/windows_offline), and `cudnnctl trace` names the step a loaded DLL's folder stands for
// (platform/win/load_trace). Plain string logic, no Windows call: folders compare without case, '/' and '\'
// alike, quotes, a trailing separator and the \\?\ prefix ignored.
// Source: Microsoft Learn, "Dynamic-link library search order" (desktop applications): the standard order with
// SafeDllSearchMode on (the default), its change by SetDllDirectory and LOAD_WITH_ALTERED_SEARCH_PATH, and the
// order of the LOAD_LIBRARY_SEARCH_* flags (SetDefaultDllDirectories, AddDllDirectory).
#include <optional>
#include <string>
#include <vector>

namespace cudnnctl::platform {

enum class WindowsSearchStep { dll_folder, application_folder, added_folder, system32, system16, windows_folder, current_folder, path };

/// "the DLL's own folder", "application folder", "added folder", "System32", "System folder", "Windows folder",
/// "current folder", "PATH".
std::string step_name(WindowsSearchStep step);

struct WindowsSearchPlaces {
  /// LOAD_LIBRARY_SEARCH_DEFAULT_DIRS (what PyTorch uses: AddDllDirectory, then LoadLibraryExW with the flags):
  /// only the DLL's own folder, the application folder, the added folders and System32; no PATH, no current folder.
  bool default_dirs = false;
  std::string dll_folder;            // the asking DLL's folder when it is searched first (LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR;
                                     // in the standard order LOAD_WITH_ALTERED_SEARCH_PATH, in place of the application folder)
  std::string application_folder;    // the folder of the process's .exe
  std::vector<std::string> added_folders;  // AddDllDirectory (default_dirs) or SetDllDirectory (standard: no current folder then)
  std::string system32;              // GetSystemDirectoryW: C:\Windows\System32 (or where another machine's is seen from here)
  std::string windows_folder;        // %SystemRoot%: C:\Windows (its System folder comes after System32)
  std::string current_folder;        // the process's current folder; empty: unknown, left out
  std::vector<std::string> path_entries;  // PATH, in order, as written (quotes allowed)
};

struct WindowsSearchFolder {
  std::string folder;  // as given (quotes removed)
  WindowsSearchStep step;
};

/// The folders the loader searches, in its order; empty places left out, a folder named twice kept twice (the
/// first one is the one that counts).
std::vector<WindowsSearchFolder> windows_search_order(const WindowsSearchPlaces& places);

/// The first step of `order` whose folder holds `dll_path` (a full path); nullopt when none does (the DLL was
/// loaded by full path, or from a folder the model was not told of).
std::optional<WindowsSearchStep> windows_search_step_of(const std::string& dll_path, const std::vector<WindowsSearchFolder>& order);

/// A folder in the form used for comparing: no quotes, lower-case ASCII, '\' separators, no \\?\ prefix, no trailing '\'.
std::string comparable_windows_folder(const std::string& folder);

} // namespace cudnnctl::platform
