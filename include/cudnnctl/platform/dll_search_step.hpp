#pragma once
// Which step of the Windows DLL search order a loaded DLL's folder stands for, told from its path alone
// (a debugger sees where a DLL was mapped from, not how the loader found it): the application folder,
// System32, a PATH entry, the CUDA toolkit's bin, else "unknown" (a full path given to LoadLibrary, a folder
// added with AddDllDirectory/SetDllDirectory, the current folder). Plain string logic: Windows paths compare
// without case, '/' and '\' alike, a trailing separator and the \\?\ prefix ignored.
#include <string>
#include <vector>

namespace cudnnctl::platform {

struct DllSearchPlaces {
  std::string application_folder;       // the folder of the process's .exe
  std::string system_folder;            // GetSystemDirectoryW: C:\Windows\System32
  std::vector<std::string> path_entries;  // PATH, in order
  std::vector<std::string> toolkit_bins;  // %CUDA_PATH%\bin, %CUDA_PATH%\bin\x64
};

/// "application folder", "System32", "PATH", "toolkit bin" or "unknown", in the loader's order of preference.
std::string dll_search_step(const std::string& dll_path, const DllSearchPlaces& places);

/// A folder in the form used for comparing: no quotes, lower-case ASCII, '\' separators, no \\?\ prefix, no trailing '\'.
std::string comparable_windows_folder(const std::string& folder);

} // namespace cudnnctl::platform
