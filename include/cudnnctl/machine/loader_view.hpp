#pragma once
// This host's loader as a program started now meets it: the places it searches (the environment, the ld.so
// cache read once, the Debian multiarch triplet, the working folder), where it would take libcudnn from (the
// loader's winner), and the cuDNN copies along its order with the releases they mix. Gathered at the first ask
// and kept for the run: `explain --here` reads it for every message it checks, through the run's Machine.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/env/library_lookup.hpp"
#include "cudnnctl/env/shadow_scan.hpp"
#include "cudnnctl/platform/environment.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

/// Reads the ld.so cache's text (`ldconfig -p`, Linux); tests plant their own.
using LdCacheRead = std::function<Result<std::string>()>;

class LoaderView {
public:
  /// `env`: the environment programs start with (kept by reference: it outlives the view); `host`: this machine.
  LoaderView(const platform::Environment& env, platform::HostPlatform host, LdCacheRead read_ld_cache = {});

  /// The places the loader searches (the ld.so cache read at the first call, once).
  const LookupPlaces& places();
  /// Where the loader takes `file` from, and the copies after it; `named_dir`: the folder a message named.
  LibraryLookup look_up(const std::string& file, const std::string& named_dir = {});
  /// The folder the loader would take libcudnn from (cuDNN 9, else 8); empty: none on the loader's order.
  std::string cudnn_dir();
  /// The copies of cuDNN `major` along the loader's order (scanned once per major).
  const ShadowReport& cudnn_copies(unsigned major);
  /// Each copy of cuDNN `major` on the loader's order that lacks a sub-library another release there fills, in
  /// words with its fix (env/mixed_release.hpp); one sentence saying none does otherwise.
  std::vector<std::string> mixed_release_findings(unsigned major);

  /// How many times the ld.so cache was read (0 or 1).
  int cache_reads() const { return m_cache_reads; }
  /// Why the ld.so cache could not be read (empty when it was, or before places() was asked).
  const std::string& ld_cache_problem() const { return m_ld_cache_problem; }

private:
  const platform::Environment& m_env;
  platform::HostPlatform m_host;
  LdCacheRead m_read_ld_cache;
  std::optional<LookupPlaces> m_places;
  std::map<unsigned, ShadowReport> m_copies;
  int m_cache_reads = 0;
  std::string m_ld_cache_problem;
};

} // namespace cudnnctl
