// The owner of a path, from the package managers' records under a root (owner_lookup.hpp). The dpkg and
// pacman databases are indexed once, for the paths that name cuDNN (every file cudnnctl asks about does);
// any other path is looked up by a scan of the same records.
#include "cudnnctl/owner/owner_lookup.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>
#include <vector>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/owner/installer_entry.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/owner/owner_records.hpp"
#include "cudnnctl/owner/owner_sources.hpp"
#include "cudnnctl/owner/rpm_database.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

struct OwnerIndex {
  bool loaded = false;
  std::map<std::string, Owner> by_path;  // target path -> owner (dpkg, nvidia-cudnn, pacman)
  RpmQuery rpm;
  std::map<std::string, std::optional<Owner>> rpm_cache;
};

namespace {


void index_paths(OwnerIndex& ix, const std::vector<std::string>& paths, const Owner& o) {
  for (const auto& p : paths)
    if (names_cudnn(p)) ix.by_path.try_emplace(p, o);
}

void load_index(OwnerIndex& ix, const std::string& root) {
  ix.loaded = true;
  for (const auto& rec : read_dpkg_records(root, RecordFilter::naming_cudnn)) index_paths(ix, rec.paths, rec.owner);
  for (const auto& rec : read_nvidia_cudnn_filelist(root)) index_paths(ix, rec.paths, rec.owner);
  for (const auto& rec : read_pacman_records(root, RecordFilter::naming_cudnn)) index_paths(ix, rec.paths, rec.owner);
  ix.rpm = find_rpm_database(root);
}

std::optional<Owner> scan_records(const std::string& root, const std::vector<std::string>& candidates) {
  const auto has = [&](const std::vector<std::string>& paths) {
    for (const auto& c : candidates)
      for (const auto& p : paths)
        if (p == c) return true;
    return false;
  };
  for (auto* reader : {&read_dpkg_records, &read_nvidia_cudnn_filelist, &read_pacman_records})
    for (const auto& rec : reader(root, RecordFilter::all))
      if (has(rec.paths)) return rec.owner;
  return std::nullopt;
}

} // namespace

OwnerLookup::OwnerLookup(std::string root) : m_root(std::move(root)), m_index(std::make_unique<OwnerIndex>()) {
  while (m_root.size() > 1 && m_root.back() == '/') m_root.pop_back();
  if (m_root.empty()) m_root = "/";
}
OwnerLookup::~OwnerLookup() = default;
OwnerLookup::OwnerLookup(OwnerLookup&&) noexcept = default;
OwnerLookup& OwnerLookup::operator=(OwnerLookup&&) noexcept = default;

std::string package_root() {
  const auto root = platform::ProcessEnvironment().get("CUDNNCTL_PACKAGE_ROOT");
  return root && !root->empty() ? *root : std::string("/");
}

std::string target_path(const std::string& root, const std::string& host_path) {
  if (root == "/" || root.empty()) return host_path;
  if (host_path.size() > root.size() && host_path.compare(0, root.size(), root) == 0 && host_path[root.size()] == '/')
    return host_path.substr(root.size());
  return host_path;
}

std::vector<std::string> merged_usr_aliases(const std::string& target) {
  std::vector<std::string> out{target};
  for (const std::string_view top : {"/lib/", "/lib64/", "/lib32/", "/bin/", "/sbin/"}) {
    if (target.starts_with(top)) out.push_back("/usr" + target);
    if (target.starts_with("/usr" + std::string(top))) out.push_back(target.substr(4));
  }
  return out;
}

Owner OwnerLookup::owner_of(const std::string& path) {
  const std::string target = target_path(m_root, path);
  // where the file is on this machine: the path itself when it is under the root (or the root is "/"), or is
  // there as given (a bundle outside a mounted tree); else the target's path under the root
  std::string host = path;
  std::error_code ec;
  if (m_root != "/" && target == path && !std::filesystem::exists(path_from_utf8(path), ec)) host = under_root(m_root, target);
  std::vector<std::string> candidates = merged_usr_aliases(target);
  // the folder with its links resolved (a /lib -> usr/lib link, a lib64 -> lib), as the target names it
  const auto host_dir = std::filesystem::canonical(path_from_utf8(parent_of(host)), ec);
  if (!ec) {
    const std::string canon = target_path(m_root, utf8_of(host_dir)) + "/" + std::string(base_name(target));
    for (const auto& a : merged_usr_aliases(canon))
      if (std::find(candidates.begin(), candidates.end(), a) == candidates.end()) candidates.push_back(a);
  }
  if (!m_index->loaded) load_index(*m_index, m_root);
  for (const auto& c : candidates)
    if (const auto it = m_index->by_path.find(c); it != m_index->by_path.end()) return it->second;
  if (!names_cudnn(target))
    if (auto o = scan_records(m_root, candidates)) return *o;
  if (m_index->rpm.usable()) {
    auto& cached = m_index->rpm_cache[target];
    if (!cached) cached = m_index->rpm.owner_of(candidates).value_or(Owner{});
    if (cached->owned()) return *cached;
  }
  for (auto* prefix_owner : {&conda_owner, &pip_owner, &receipt_owner})
    if (auto o = prefix_owner(host)) return *o;
  if (const auto place = windows_installer_place(path)) return windows_installer_owner_here(place->release, place->root);
  return {};
}

std::optional<std::string> system_territory(const std::string& target_folder) {
  std::string f = target_folder;
  while (f.size() > 1 && f.back() == '/') f.pop_back();
  if (f == "/" || f == "/usr") return "'" + f + "' is the operating system's own tree, which its package manager owns";
  if (f.starts_with("/usr/local/") || f == "/usr/local") return std::nullopt;
  for (const std::string_view top : {"/usr/", "/lib/", "/lib64/", "/lib32/", "/bin/", "/sbin/"})
    if ((f + "/").starts_with(top))
      return "'" + f + "' is a system folder (under " + std::string(top.substr(0, top.find('/', 1))) +
             ") whose cuDNN and CUDA files belong to the package manager (Debian's nvidia-cuda-toolkit lives in /usr)";
  return std::nullopt;
}

} // namespace cudnnctl
