#pragma once
// The Linux loader's knowledge, one owner each: the ld.so cache as `ldconfig -p` prints it, $ORIGIN in a
// RUNPATH, the default folders (with the host's Debian multiarch triplet: x86_64-linux-gnu,
// aarch64-linux-gnu on sbsa and Jetson, powerpc64le-linux-gnu), and where a name resolves.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

/// `ldconfig -p` text -> library name -> path; the first entry of a name wins, as in the loader's lookup.
/// Every entry of `ldconfig -p` output as (name, path), in cache order, duplicates kept.
std::vector<std::pair<std::string, std::string>> parse_ld_cache_entries(const std::string& text);
std::map<std::string, std::string> parse_ld_cache(const std::string& text);
/// Every path the cache lists for exactly this name (e.g. "libcuda.so.1"), in cache order.
std::vector<std::string> ld_cache_paths(const std::string& text, const std::string& name);

/// The ld.so cache as `ldconfig -p` prints it. ldconfig is looked for where it lives (/sbin, /usr/sbin:
/// often not on a user's PATH), then on PATH, and run with a timeout; the error says where it looked.
/// `system_root` other than "/" (an image, tests): that root's cache (`ldconfig -r ROOT -p`), its paths
/// written as seen from here (ROOT/opt/... for the cache's /opt/...).
Result<std::string> read_ld_cache_text(const std::string& system_root = "/");

/// `ldconfig -r ROOT -p` text with each path of an entry prefixed by ROOT (the paths as this machine reaches them).
std::string ld_cache_text_under(const std::string& text, const std::string& system_root);

/// A RUNPATH (or RPATH) value -> its folders, $ORIGIN and ${ORIGIN} replaced by `origin`; empty entries dropped.
std::vector<std::string> expand_origin(const std::string& runpath, const std::string& origin);

/// The Debian multiarch triplet for a Linux architecture: x86_64 -> x86_64-linux-gnu, sbsa/aarch64 ->
/// aarch64-linux-gnu, ppc64le -> powerpc64le-linux-gnu.
std::string multiarch_triplet(Arch arch);

/// The folders ld.so searches last: /lib/<triplet>, /usr/lib/<triplet>, /lib, /usr/lib, /lib64, /usr/lib64.
std::vector<std::string> linux_default_dirs(const std::string& triplet);

struct LinuxHit {
  std::string path;
  std::string via;  // "RPATH", "LD_LIBRARY_PATH", "RUNPATH", "ld.so cache", "default folder"
};

/// A requesting object's own search paths, $ORIGIN replaced by its folder. ld.so searches DT_RPATH before
/// LD_LIBRARY_PATH, and only when the object has no DT_RUNPATH; DT_RUNPATH comes after LD_LIBRARY_PATH.
struct OwnSearchPaths {
  std::vector<std::string> rpath;
  std::vector<std::string> runpath;
};
OwnSearchPaths own_search_paths(const std::string& rpath, const std::string& runpath, const std::string& origin);

/// One folder of the search order: as written, why it is there, and where that is from here (an empty
/// LD_LIBRARY_PATH entry is the current folder; a relative one is read from it).
struct LinuxSearchStep {
  std::string dir;
  std::string via;
  std::string resolved;
};

/// The Linux loader's search order, built once: every caller (doctor, path, shadow scan, trace) asks it.
struct LinuxSearchOrder {
  std::vector<std::string> ld_library_path;  // entries as written, empty ones kept
  std::map<std::string, std::string> cache;  // name -> path, the cache's first entry of a name
  std::vector<std::pair<std::string, std::string>> cache_entries;  // every (name, path) in cache order
  std::vector<std::string> defaults;
  std::string cwd;  // what an empty or relative LD_LIBRARY_PATH entry is read from

  /// From this environment's LD_LIBRARY_PATH, `ldconfig -p` text and the host's multiarch triplet.
  static LinuxSearchOrder of(const platform::Environment& env, const std::string& ld_cache_text, const std::string& triplet,
                             const std::string& cwd);

  /// Every folder ld.so tries for a library requested by an object with `own` paths, in order; `cache_dirs`
  /// are the folders the cache gives for it (cache_dirs_for_name, or the folders of a family of names).
  std::vector<LinuxSearchStep> steps(const OwnSearchPaths& own, const std::vector<std::string>& cache_dirs) const;
  /// The folders the cache lists `name` in, in cache order.
  std::vector<std::string> cache_dirs_for_name(const std::string& name) const;
  /// Where `name` resolves; `exists` is asked for each candidate path (a cache hit is taken as ld.so takes it).
  std::optional<LinuxHit> find(const std::string& name, const OwnSearchPaths& own,
                               const std::function<bool(const std::string&)>& exists) const;
};

} // namespace cudnnctl
