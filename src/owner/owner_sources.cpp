// The package managers' records read from the disk, bounded (owner_sources.hpp).
#include "cudnnctl/owner/owner_sources.hpp"

#include <map>

#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/owner/owner_records.hpp"
#include "cudnnctl/platform/folder_listing.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {
std::string under_root(const std::string& root, const std::string& target) { return root == "/" ? target : root + target; }

namespace {

// The record's text, or empty when it is missing, not a regular file, too large or unreadable.
std::string read_record(const std::string& path) {
  auto text = platform::read_input_file(path, "a package manager's record", k_owner_record_max);
  return text ? std::move(*text) : std::string();
}

bool kept(const std::string& text, RecordFilter filter) {
  return filter == RecordFilter::all || text.find("cudnn") != std::string::npos || text.find("CUDNN") != std::string::npos;
}

std::vector<std::string> folder_names(const std::string& dir, bool folders) {
  std::vector<std::string> out;
  const auto folder = platform::OpenFolder::open(dir);
  if (!folder) return out;
  std::vector<platform::FolderEntry> entries;
  folder->list(entries);
  for (const auto& e : entries) {
    if (out.size() >= k_owner_folder_max) break;
    const bool is_folder = e.kind == platform::FolderEntry::Kind::folder || e.kind == platform::FolderEntry::Kind::unknown;
    if (folders ? is_folder : e.kind != platform::FolderEntry::Kind::folder) out.push_back(e.name);
  }
  return out;
}

// The prefix-relative form of `host_path` under `prefix`, '/'-separated; empty when it is not under it.
std::string relative_to(const std::string& prefix, const std::string& host_path) {
  std::string p = host_path, pre = prefix;
  for (auto* s : {&p, &pre})
    for (auto& c : *s)
      if (c == '\\') c = '/';
  if (p.size() <= pre.size() + 1 || p.compare(0, pre.size(), pre) != 0 || p[pre.size()] != '/') return {};
  return p.substr(pre.size() + 1);
}

// The folders above `host_path`, nearest first, at most `levels`.
std::vector<std::string> folders_above(const std::string& host_path, int levels) {
  std::vector<std::string> out;
  std::string dir = parent_of(host_path);
  for (int i = 0; i < levels && !dir.empty(); ++i) {
    out.push_back(dir);
    const std::string up = parent_of(dir);
    if (up == dir) break;
    dir = up;
  }
  return out;
}

} // namespace

std::vector<PackageRecord> read_dpkg_records(const std::string& root, RecordFilter filter) {
  std::vector<PackageRecord> out;
  const std::string admin = under_root(root, "/var/lib/dpkg");
  const std::string status = read_record(admin + "/status");
  if (status.empty()) return out;
  for (const auto& pkg : parse_dpkg_status(status)) {
    PackageRecord rec{{OwnerKind::dpkg, pkg.name, pkg.version, pkg.held, {}}, {}};
    for (const std::string& name : {pkg.name + ":" + pkg.arch, pkg.name}) {
      rec.owner.record = admin + "/info/" + name + ".list";
      const std::string text = read_record(rec.owner.record);
      if (text.empty()) continue;
      if (kept(text, filter)) rec.paths = parse_path_list(text);
      break;
    }
    if (!rec.paths.empty()) out.push_back(std::move(rec));
  }
  return out;
}

std::vector<PackageRecord> read_nvidia_cudnn_filelist(const std::string& root, RecordFilter) {
  const std::string list = under_root(root, "/var/lib/nvidia-cudnn/filelist.txt");
  const std::string text = read_record(list);
  if (text.empty()) return {};
  PackageRecord rec{{OwnerKind::nvidia_cudnn, "nvidia-cudnn", {}, false, list}, parse_path_list(text)};
  for (const auto& pkg : parse_dpkg_status(read_record(under_root(root, "/var/lib/dpkg/status"))))
    if (pkg.name == "nvidia-cudnn") rec.owner.version = pkg.version, rec.owner.held = pkg.held;
  return {rec};
}

std::vector<PackageRecord> read_pacman_records(const std::string& root, RecordFilter filter) {
  std::vector<PackageRecord> out;
  const std::string local = under_root(root, "/var/lib/pacman/local");
  for (const auto& name : folder_names(local, true)) {
    const auto desc = parse_pacman_desc(read_record(local + "/" + name + "/desc"));
    if (!desc) continue;
    PackageRecord rec{{OwnerKind::pacman, desc->name, desc->version, false, local + "/" + name + "/files"}, {}};
    const std::string text = read_record(rec.owner.record);
    if (kept(text, filter)) rec.paths = parse_pacman_files(text);
    if (!rec.paths.empty()) out.push_back(std::move(rec));
  }
  return out;
}

std::optional<Owner> conda_owner(const std::string& host_path) {
  for (const auto& prefix : folders_above(host_path, 4)) {
    const std::string meta = prefix + "/conda-meta";
    const auto names = folder_names(meta, false);
    if (names.empty()) continue;
    const std::string rel = relative_to(prefix, host_path);
    for (const auto& name : names) {
      if (!name.ends_with(".json")) continue;
      const auto rec = parse_conda_record(read_record(meta + "/" + name));
      if (!rec) continue;
      for (const auto& f : rec->files)
        if (f == rel) return Owner{OwnerKind::conda, rec->name, rec->version, false, meta + "/" + name};
    }
    return std::nullopt;  // the nearest prefix speaks for the file
  }
  return std::nullopt;
}

std::optional<Owner> pip_owner(const std::string& host_path) {
  // the site folder is the nearest one above that holds *.dist-info folders (site-packages, dist-packages, a --target)
  for (const auto& site : folders_above(host_path, 6)) {
    const std::string rel = relative_to(site, host_path);
    bool any_dist = false;
    for (const auto& name : folder_names(site, true)) {
      const auto dist = parse_dist_info_name(name);
      if (!dist) continue;
      any_dist = true;
      const std::string record = site + "/" + name + "/RECORD";
      for (const auto& p : parse_record_paths(read_record(record)))
        if (p == rel) return Owner{OwnerKind::pip, dist->first, dist->second, false, record};
    }
    if (any_dist) return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Owner> receipt_owner(const std::string& host_path) {
  for (const auto& root : folders_above(host_path, 3)) {
    const std::string receipt = root + "/.cudnnctl/receipt.json";
    const std::string text = read_record(receipt);
    if (text.empty()) continue;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("files") || !j["files"].is_array()) return std::nullopt;
    const std::string rel = relative_to(root, host_path);
    const std::string version = j.value("version", std::string());
    for (const auto& f : j["files"])
      if (f.is_object() && f.contains("path") && f["path"].is_string() && f["path"].get<std::string>() == rel)
        return Owner{OwnerKind::cudnnctl, "cuDNN " + (plain_token(version) ? version : std::string("?")),
                     plain_token(version) ? version : std::string(), false, receipt};
    return std::nullopt;
  }
  return std::nullopt;
}

} // namespace cudnnctl
