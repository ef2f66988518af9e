#include "cudnnctl/bundle/bundle_scan.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/env/cuda_stack.hpp"
#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/platform/process.hpp"

namespace fs = std::filesystem;

namespace cudnnctl {

namespace {

constexpr std::uintmax_t k_max_record_bytes = 64u << 20;

std::string slashed(std::string p) {
  std::replace(p.begin(), p.end(), '\\', '/');
  return p;
}

std::optional<std::string> small_text(const fs::path& p) {
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(p, ec)) || fs::file_size(p, ec) > k_max_record_bytes || ec) return std::nullopt;
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "Name: torch" / "Version: 2.5.1" from a dist-info's METADATA.
std::string metadata_field(const std::string& text, std::string_view field) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line == "\r" || line.empty()) break;  // the headers end at the first empty line
    if (line.starts_with(field) && line.size() > field.size() && line[field.size()] == ':') {
      auto v = line.substr(field.size() + 1);
      while (!v.empty() && (v.back() == '\r' || v.back() == ' ')) v.pop_back();
      while (!v.empty() && v.front() == ' ') v.erase(v.begin());
      return v;
    }
  }
  return {};
}

std::optional<BundleOwner> pip_owner(const fs::path& site, const std::string& rel) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(site, ec)) {
    const auto name = utf8_of(e.path().filename());
    if (!name.ends_with(".dist-info")) continue;
    const auto text = small_text(e.path() / "RECORD");
    if (!text || text->find(rel) == std::string::npos) continue;
    auto rows = parse_record(*text, utf8_of(e.path() / "RECORD"));
    if (!rows) continue;
    if (std::none_of(rows->begin(), rows->end(), [&](const RecordEntry& r) { return r.path == rel; })) continue;
    BundleOwner o;
    const auto meta = small_text(e.path() / "METADATA").value_or("");
    o.name = metadata_field(meta, "Name");
    o.version = metadata_field(meta, "Version");
    if (o.name.empty()) o.name = name.substr(0, name.find('-'));
    o.metadata = utf8_of(e.path());
    o.site = utf8_of(site);
    o.record = std::move(*rows);
    o.cuda_major = cuda_major_of_wheel(name);
    return o;
  }
  return std::nullopt;
}

std::optional<BundleOwner> conda_owner(const fs::path& prefix, const std::string& rel) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(prefix / "conda-meta", ec)) {
    if (e.path().extension() != ".json") continue;
    const auto text = small_text(e.path());
    if (!text || text->find(rel) == std::string::npos) continue;
    try {
      const auto doc = nlohmann::json::parse(*text);
      const auto files = doc.value("files", std::vector<std::string>{});
      if (std::find(files.begin(), files.end(), rel) == files.end()) continue;
      BundleOwner o{doc.value("name", ""), doc.value("version", ""), utf8_of(e.path()), utf8_of(prefix), {}, 0};
      return o;
    } catch (const std::exception&) {
      continue;
    }
  }
  return std::nullopt;
}

unsigned cudart_major_beside(const std::string& dir, const std::vector<std::string>& names) {
  std::vector<std::string> candidates;
  for (const auto& n : names) candidates.push_back(dir + "/" + n);
  // the nvidia-cuda-runtime wheel beside the nvidia-cudnn one: site-packages/nvidia/cuda_runtime/lib
  const auto runtime = path_from_utf8(dir).parent_path().parent_path() / "cuda_runtime" / "lib";
  for (const auto& n : names_in(utf8_of(runtime))) candidates.push_back(utf8_of(runtime / path_from_utf8(n)));
  for (const auto& c : candidates)
    if (to_lower_ascii(c).find("cudart") != std::string::npos)
      if (const auto m = cuda_major_of_file(c)) return m;
  return 0;
}

} // namespace

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(path_from_utf8(dir), ec)) out.push_back(utf8_of(e.path().filename()));
  std::sort(out.begin(), out.end());
  return out;
}

std::string library_arch(const std::string& file, Os os) {
  if (os == Os::windows) {
    const auto pe = read_pe_file(file);
    return pe ? pe_machine_name(pe->machine) : std::string();
  }
  const auto elf = read_elf_file(file);
  return elf ? elf_machine_name(elf->machine) : std::string();
}

std::optional<BundleOwner> find_owner(const std::string& dir, const std::string& main_file) {
  auto up = path_from_utf8(dir);
  std::string rel = main_file;
  for (int level = 0; level < 6 && up.has_relative_path(); ++level) {
    rel = utf8_of(up.filename()) + "/" + rel;
    up = up.parent_path();
    if (auto o = pip_owner(up, rel)) return o;
    if (auto o = conda_owner(up, rel)) return o;
  }
  return std::nullopt;
}

std::map<std::string, std::string> hash_files(const std::string& dir, const std::vector<std::string>& files) {
  std::map<std::string, std::string> out;
  for (const auto& f : files)
    if (auto h = sha256_file(dir + "/" + f)) out[f] = *h;
  return out;
}

BundleState record_state(const std::string& dir, const std::map<std::string, std::string>& sha256_by_name,
                         const std::optional<BundleOwner>& owner, std::string* note) {
  if (!owner || owner->record.empty()) return BundleState::unrecorded;
  const auto site = slashed(owner->site);
  const auto rel_dir = slashed(dir).substr(std::min(site.size() + 1, slashed(dir).size()));
  std::map<std::string, std::string> recorded;
  for (const auto& r : owner->record) recorded[r.path] = r.hash;
  for (const auto& [name, sha] : sha256_by_name) {
    const auto it = recorded.find(rel_dir + "/" + name);
    if (it == recorded.end()) {
      if (note) *note = fmt::format("{} is not in {}'s RECORD", name, owner->name);
      return BundleState::modified;
    }
    if (it->second != record_hash_of_hex(sha)) {
      if (note) *note = fmt::format("{} differs from {}'s RECORD", name, owner->name);
      return BundleState::modified;
    }
  }
  for (const auto& [path, hash] : recorded)
    if (path.starts_with(rel_dir + "/") && path.find('/', rel_dir.size() + 1) == std::string::npos) {
      const auto name = path.substr(rel_dir.size() + 1);
      if (classify_cudnn_file(name, Os::linux_os) || classify_cudnn_file(name, Os::windows))
        if (!sha256_by_name.contains(name)) {
          if (note) *note = fmt::format("{} (in {}'s RECORD) is missing", name, owner->name);
          return BundleState::modified;
        }
    }
  return BundleState::original;
}

Result<Bundle> describe_bundle(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(path_from_utf8(dir), ec))
    return fail(ErrorCode::file_not_found, fmt::format("'{}' is not a folder", dir), "name the folder that holds the framework's cuDNN libraries", dir);
  Bundle b;
  b.dir = dir;
  const auto names = names_in(dir);
  b.os = bundle_os(names).value_or(Os::linux_os);
  b.files = cudnn_files_among(names, b.os);
  b.cudnn_major = bundle_cudnn_major(b.files, b.os);
  const auto main_lib = main_library(b.files, b.os);
  if (main_lib.empty()) return b;
  b.owner = find_owner(dir, main_lib);
  b.arch = library_arch(dir + "/" + main_lib, b.os);
  if (b.owner && to_lower_ascii(b.owner->name).find("cudnn") != std::string::npos && !b.owner->version.empty()) {
    b.version = b.owner->version;
    b.version_source = b.owner->name + " METADATA";
  } else if (const auto pe = b.os == Os::windows ? read_pe_file(dir + "/" + main_lib) : Result<PeImports>(fail(ErrorCode::io, "")); pe && !pe->file_version.empty()) {
    b.version = pe->file_version;
    b.version_source = main_lib + " version resource";
  } else {
    for (const auto& f : b.files)
      if (const auto c = classify_cudnn_file(f, b.os); c && c->main() && !c->full_version.empty()) {
        b.version = c->full_version;
        b.version_source = "file name " + f;
      }
  }
  b.cuda_major = b.owner && b.owner->cuda_major ? b.owner->cuda_major : cudart_major_beside(dir, names);
  return b;
}

Result<Bundle> read_bundle(const std::string& dir) {
  CUDNNCTL_TRY_ASSIGN(auto b, describe_bundle(dir));
  if (main_library(b.files, b.os).empty()) return b;  // no main library: nothing to hash or judge
  b.sha256 = hash_files(dir, b.files);
  b.state = record_state(dir, b.sha256, b.owner, &b.state_note);
  return b;
}

std::vector<std::string> env_bundle_sites(const platform::Environment& env) {
  std::vector<std::string> sites;
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (const auto v = env.get(var); v && !v->empty())
      for (const char* sub : {"/lib", "/Lib/site-packages", "/Library/bin"}) sites.push_back(*v + sub);
  return sites;
}

std::vector<std::string> python_sites_command(const std::string& exe) {
  return {exe, "-c", "import site,sys\nfor p in site.getsitepackages()+[site.getusersitepackages()]: print(p)"};
}

std::vector<std::string> parse_site_lines(std::string_view printed) {
  std::vector<std::string> sites;
  std::istringstream in{std::string(printed)};
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (!line.empty()) sites.push_back(line);
  }
  return sites;
}

Result<std::vector<std::string>> python_site_dirs(const std::string& exe) {
  CUDNNCTL_TRY_ASSIGN(auto out, platform::run_capture(python_sites_command(exe)));
  return parse_site_lines(out);
}

} // namespace cudnnctl
