#include "cudnnctl/bundle/bundle_walk.hpp"

#include <algorithm>
#include <filesystem>

#include "cudnnctl/bundle/bundle.hpp"
#include "cudnnctl/platform/folder_listing.hpp"

namespace cudnnctl {

bool bundle_walk_skips(std::string_view folder_name) {
  return folder_name == "__pycache__" || folder_name == "include" || folder_name.ends_with(".dist-info") || folder_name.ends_with(".egg-info");
}

namespace {

// `dir` and `name` as std::filesystem's operator/ joins them (its separator: '\' on Windows), without
// building a path object for each of the walk's thousands of folders.
std::string walk_child_path(const std::string& dir, const std::string& name) {
  constexpr auto separator = static_cast<char>(std::filesystem::path::preferred_separator);
  if (dir.empty() || dir.back() == '/' || dir.back() == separator) return dir + name;
  return dir + separator + name;
}

// Adds `path` when its names make it a bundle, then walks its subfolders (neither links nor skipped
// names) `depth_left` levels further down.
void walk_bundle_folder(const platform::OpenFolder& folder, const std::string& path, int depth_left, std::vector<std::string>& out) {
  std::vector<platform::FolderEntry> entries;
  folder.list(entries);  // a folder unreadable part-way: what was listed still counts, as before
  std::vector<std::string> names;
  names.reserve(entries.size());
  for (const auto& e : entries) names.push_back(e.name);
  if (bundle_os(names)) out.push_back(path);
  if (depth_left <= 0) return;
  for (const auto& e : entries) {
    // a file system that gives no kind (unknown): opening it as a folder, without following a link, tells
    if (e.kind == platform::FolderEntry::Kind::link || e.kind == platform::FolderEntry::Kind::other || bundle_walk_skips(e.name)) continue;
    if (const auto child = folder.open_child(e.name)) walk_bundle_folder(*child, walk_child_path(path, e.name), depth_left - 1, out);
  }
}

} // namespace

std::vector<std::string> find_bundle_dirs(const std::string& site) {
  std::vector<std::string> out;
  if (const auto root = platform::OpenFolder::open(site)) walk_bundle_folder(*root, site, k_bundle_walk_depth, out);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace cudnnctl
