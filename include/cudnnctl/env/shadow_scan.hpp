#pragma once
// Which cuDNN a program loads: the loader's search order (Linux: LD_LIBRARY_PATH, the loading library's
// RUNPATH, the ld.so cache, the default folders; Windows: the application folder, System32, the Windows
// folder, the current folder, then PATH), every cuDNN copy along it with its version, the one that wins, and why each copy
// that comes before the installed one shadows it. The doctor reuses this.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/env/linux_loader.hpp"
#include "cudnnctl/owner/owner.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

enum class LoaderFlavor { linux_ld, windows };

struct SearchDir {
  std::string dir;
  std::string via;  // "LD_LIBRARY_PATH", "RUNPATH of X", "ld.so cache", "default folder", "System32", "PATH", ...
  std::string local{};  // where to look on this machine when `dir` names another machine's folder (a mounted Windows disk)
  std::string where() const { return local.empty() ? dir : local; }
};

struct CudnnCopy {
  std::string dir;
  std::string via;
  unsigned major = 0;
  std::string main_file;  // libcudnn.so.9 / cudnn64_9.dll
  std::string version;    // "9.19.0" when known, else "9.x"
  bool wins = false;      // the copy a program asking for this major loads
  bool installed = false; // in the folder cudnnctl installed into
  std::string machine;    // the file's machine ("x86_64", "aarch64"; "x64", "arm64"), empty when unreadable
  bool other_machine = false;  // built for another machine than the process: the loader skips it, never a candidate
  std::vector<std::string> sub_libraries{};  // the loader names' base names of this major in its folder ("cudnn_ops")
  Owner owner{};          // who put it there (owner/owner_lookup: dpkg, rpm, pacman, conda, pip, cudnnctl, ...)
};

struct ShadowReport {
  std::vector<SearchDir> order;
  std::vector<CudnnCopy> copies;
  std::vector<std::string> explanations;  // one per copy that shadows the installed one, and when it is off the path
};

/// `ldconfig -p` text -> folders holding libcudnn*, in cache order.
std::vector<std::string> parse_ldconfig_cache(const std::string& text);

/// The folders of the Linux loader's order (env/linux_loader's model: RPATH, LD_LIBRARY_PATH with empty and
/// relative entries read from the current folder, RUNPATH, the cache's folders, the default folders).
/// `multiarch`: the Debian triplet of the default folders; empty: this host's.
std::vector<SearchDir> linux_search_order(const platform::Environment& env, const OwnSearchPaths& own,
                                          const std::vector<std::string>& ld_cache_dirs, const std::string& multiarch = {});
/// The folders of the Windows loader's standard order (platform/windows_search_order's model): the application's
/// folder (empty: none), System32, System and the Windows folder of %SystemRoot%, the current folder (empty:
/// unknown, left out), then PATH with %VARIABLES% expanded. Each folder's `via` is the model's step name.
std::vector<SearchDir> windows_search_order(const platform::Environment& env, const std::string& app_dir,
                                            const std::string& current_folder = {});

/// The version of a copy: a DLL's version resource (9.1.0.70), the real file name (libcudnn.so.9.19.0), else
/// ../include/cudnn_version.h.
std::string copy_version(const std::string& dir, const std::string& main_file, unsigned major);

/// Scans the folders in order for cuDNN main libraries and explains what shadows `installed_dir` (compared
/// with each folder's where()). A copy built for another machine than `process_machine` (empty: this host's,
/// as elf_machine_name/pe_machine_name spell it) is named and skipped, as the loader skips it.
ShadowReport scan_cudnn_copies(const std::vector<SearchDir>& order, LoaderFlavor flavor, unsigned major,
                               const std::string& installed_dir, const std::string& process_machine = {});

/// This host's machine as the loader of `flavor` names a library's: "x86_64"/"aarch64"/"ppc64le" (ELF), "x64"/"arm64" (PE).
std::string host_library_machine(LoaderFlavor flavor);

} // namespace cudnnctl
