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

namespace cudnnctl {

/// `ldconfig -p` text -> library name -> path; the first entry of a name wins, as in the loader's lookup.
/// Every entry of `ldconfig -p` output as (name, path), in cache order, duplicates kept.
std::vector<std::pair<std::string, std::string>> parse_ld_cache_entries(const std::string& text);
std::map<std::string, std::string> parse_ld_cache(const std::string& text);
/// Every path the cache lists for exactly this name (e.g. "libcuda.so.1"), in cache order.
std::vector<std::string> ld_cache_paths(const std::string& text, const std::string& name);

/// The ld.so cache as `ldconfig -p` prints it. ldconfig is looked for where it lives (/sbin, /usr/sbin:
/// often not on a user's PATH), then on PATH, and run with a timeout; the error says where it looked.
Result<std::string> read_ld_cache_text();

/// A RUNPATH (or RPATH) value -> its folders, $ORIGIN and ${ORIGIN} replaced by `origin`; empty entries dropped.
std::vector<std::string> expand_origin(const std::string& runpath, const std::string& origin);

/// The Debian multiarch triplet for a Linux architecture: x86_64 -> x86_64-linux-gnu, sbsa/aarch64 ->
/// aarch64-linux-gnu, ppc64le -> powerpc64le-linux-gnu.
std::string multiarch_triplet(Arch arch);

/// The folders ld.so searches last: /lib/<triplet>, /usr/lib/<triplet>, /lib, /usr/lib, /lib64, /usr/lib64.
std::vector<std::string> linux_default_dirs(const std::string& triplet);

struct LinuxHit {
  std::string path;
  std::string via;  // "LD_LIBRARY_PATH", "RUNPATH", "ld.so cache", "default folder"
};

/// The order ld.so tries for a library with this RUNPATH; `exists` is asked for each candidate path.
struct LinuxSearchOrder {
  std::vector<std::string> ld_library_path;
  std::map<std::string, std::string> cache;
  std::vector<std::string> defaults;

  std::optional<LinuxHit> find(const std::string& name, const std::vector<std::string>& runpath,
                               const std::function<bool(const std::string&)>& exists) const;
};

} // namespace cudnnctl
