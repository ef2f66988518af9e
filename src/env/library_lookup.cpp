#include "cudnnctl/env/library_lookup.hpp"

#include "cudnnctl/env/linux_loader.hpp"
#include "cudnnctl/env/shadow_scan.hpp"

namespace cudnnctl {

namespace {

constexpr std::size_t k_max_other_copies = 4;

std::string lookup_join(const std::string& dir, const std::string& file, Os os) {
  if (dir.empty()) return file;
  const char sep = os == Os::windows ? '\\' : '/';
  return dir.back() == '/' || dir.back() == '\\' ? dir + file : dir + sep + file;
}

void record_copy(LibraryLookup& out, const std::string& path, const std::string& via) {
  if (out.found.empty()) {
    out.found = path;
    out.via = via;
  } else if (path != out.found && out.other_copies.size() < k_max_other_copies) {
    out.other_copies.push_back(path);
  }
}

} // namespace

LibraryLookup look_up_library(const std::string& file, const std::string& named_dir, Os os, const LookupPlaces& places) {
  LibraryLookup out;
  out.file = file;
  out.named_dir = named_dir;
  if (!named_dir.empty()) out.named_file_exists = places.exists(lookup_join(named_dir, file, os));
  if (os == Os::windows) {
    for (const auto& step : windows_search_order(*places.env, "", places.cwd)) {
      const auto path = lookup_join(step.where(), file, os);
      if (places.exists(path)) record_copy(out, path, step.via);
    }
    return out;
  }
  const auto order = LinuxSearchOrder::of(*places.env, places.ld_cache_text, places.triplet, places.cwd);
  for (const auto& step : order.steps(OwnSearchPaths{}, order.cache_dirs_for_name(file))) {
    const auto path = lookup_join(step.resolved.empty() ? step.dir : step.resolved, file, os);
    if (places.exists(path)) record_copy(out, path, step.via);
  }
  return out;
}

} // namespace cudnnctl
