#include "cudnnctl/trace/library_facts.hpp"

#include "cudnnctl/env/linux_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/env/shadow_scan.hpp"
#include "cudnnctl/install/receipt.hpp"
#include "cudnnctl/loader/elf_reader.hpp"
#include "cudnnctl/loader/library_files.hpp"
#include "cudnnctl/loader/pe_reader.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {

std::string read_bounded(const fs::path& p, std::size_t limit) { return read_text_head(p, limit).value_or(std::string()); }

// A wheel's RECORD that lists a file of this name and size: "<dist>-<version>.dist-info".
std::string wheel_version(const fs::path& file) {
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec) return {};
  const auto dir = file.parent_path();
  for (const auto& base : {dir / ".." / ".." / "..", dir / ".." / "dist-info", dir / ".." / ".."}) {
    if (!fs::is_directory(base, ec)) continue;
    std::size_t seen = 0;
    for (const auto& entry : fs::directory_iterator(base, ec)) {
      if (++seen > 2000) break;
      const auto name = entry.path().filename().string();
      if (!name.ends_with(".dist-info") || !name.starts_with("nvidia")) continue;
      const auto record = read_bounded(entry.path() / "RECORD", 1u << 20);
      const auto needle = fmt::format("/{},", file.filename().string());
      for (auto pos = record.find(needle); pos != std::string::npos; pos = record.find(needle, pos + 1)) {
        const auto eol = record.find('\n', pos);
        const auto line = record.substr(pos, eol == std::string::npos ? std::string::npos : eol - pos);
        if (line.ends_with(fmt::format(",{}", size)) || line.ends_with(fmt::format(",{}\r", size))) {
          const auto stem = name.substr(0, name.size() - std::string(".dist-info").size());
          const auto dash = stem.rfind('-');
          if (dash != std::string::npos) return stem.substr(dash + 1);
        }
      }
    }
  }
  return {};
}

// The receipt of a cudnnctl install that lists this file (up to three folders above it).
std::string receipt_listing(const fs::path& file) {
  std::error_code ec;
  auto root = file.parent_path();
  for (int up = 0; up < 3 && !root.empty(); ++up, root = root.parent_path()) {
    const auto receipt_file = fs::path(receipt_path((root / ".cudnnctl").string()));
    if (!fs::is_regular_file(receipt_file, ec)) continue;
    auto receipt = receipt_from_json(read_bounded(receipt_file, 16u << 20), receipt_file.string());
    if (!receipt) continue;
    for (const auto& f : receipt->files)
      if (f.kind == "file" && fs::equivalent(root / f.path, file, ec)) return receipt_file.string();
  }
  return {};
}


} // namespace

LibraryFacts describe_library_file(const std::string& path) {
  LibraryFacts f;
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(path, ec);
  const auto real_name = real.filename().string();
  const auto kind = classify_library(fs::path(path).filename().string());
  const bool dll = is_dll_name(real_name);
  if (dll) {
    if (auto pe = read_pe_file(real.string()); pe && !pe->file_version.empty()) f.version = pe->file_version, f.version_source = "version resource";
  } else if (auto elf = read_elf_file(real.string())) {
    f.soname = elf->soname;
  }
  static const std::regex full(R"(\.so\.(\d+\.\d+(?:\.\d+)*)$)");
  std::smatch m;
  if (f.version.empty() && std::regex_search(real_name, m, full)) f.version = m[1], f.version_source = "file name";
  if (f.version.empty())
    if (auto w = wheel_version(real); !w.empty()) f.version = w, f.version_source = "wheel RECORD listing this name and size";
  if (f.version.empty() && (kind.family == LibFamily::cudnn || kind.family == LibFamily::cudnn_sub) && kind.major) {
    const auto v = copy_version(real.parent_path().string(), real_name, kind.major);
    if (!v.empty() && v.find('x') == std::string::npos) f.version = v, f.version_source = "cudnn_version.h beside it";
  }
  if (f.version.empty() && kind.major) f.version = std::to_string(kind.major), f.version_source = dll ? "number in the DLL name" : "SONAME";
  if (kind.family == LibFamily::cudnn || kind.family == LibFamily::cudnn_sub) {
    // a framework's bundle: the package whose RECORD (or conda-meta) lists the file as it was opened, else its real file
    const auto opened = path_from_utf8(path);
    auto owner = find_owner(utf8_of(opened.parent_path()), utf8_of(opened.filename()));
    auto dir = opened.parent_path();
    if (!owner && real != opened) owner = find_owner(utf8_of(real.parent_path()), real_name), dir = real.parent_path();
    if (owner) {
      f.bundle_owner = owner->version.empty() ? owner->name : owner->name + " " + owner->version;
      f.bundle_dir = utf8_of(dir);
      const auto site = path_from_utf8(owner->site);
      std::error_code rel_ec;
      const auto rel = fs::relative(dir, site, rel_ec);
      f.bundle_where = rel_ec || rel.empty() || *rel.begin() == ".." ? f.bundle_dir : utf8_of(site.filename() / rel);
    }
  }
  if (kind.family == LibFamily::cudnn || kind.family == LibFamily::cudnn_sub) {
    static OwnerLookup owners(package_root());  // the package databases read once per run
    f.owner = owners.owner_of(path);
  }
  f.receipt = receipt_listing(fs::path(path));
  f.installed_by_cudnnctl = !f.receipt.empty();
  return f;
}

TraceSeams real_trace_seams(const platform::Environment& env) {
  // the loader's model (env/linux_loader), built on first use: the ld.so cache is read only when asked
  auto model = std::make_shared<std::optional<LinuxSearchOrder>>();
  std::map<std::string, std::string> loader_env;
  if (auto v = env.get("LD_LIBRARY_PATH")) loader_env.emplace("LD_LIBRARY_PATH", *v);
  std::vector<std::string> usual;  // places copies live that are not on a search path
  std::error_code ec;
  for (const auto& root : {fs::path("/usr/local"), fs::path("/opt")})
    for (const auto& e : fs::directory_iterator(root, ec))
      if (e.path().filename().string().starts_with("cuda"))
        for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"}) usual.push_back((e.path() / sub).string());
  for (const char* var : {"CONDA_PREFIX", "VIRTUAL_ENV"})
    if (auto prefix = env.get(var)) {
      usual.push_back(*prefix + "/lib");
      for (const auto& e : fs::directory_iterator(fs::path(*prefix) / "lib", ec))
        if (e.path().filename().string().starts_with("python"))
          for (const auto& n : fs::directory_iterator(e.path() / "site-packages" / "nvidia", ec)) usual.push_back((n.path() / "lib").string());
    }

  TraceSeams s;
  s.describe = describe_library_file;
  s.file_exists = [](const std::string& path) {
    std::error_code err;
    return fs::is_regular_file(path, err);
  };
  s.other_copies = [model, loader_env, usual](const std::string& path, const std::string& requester) {
    // Windows DLLs: the other copies along the Windows search order are not searched yet (and ldconfig is
    // Linux's: not run for them)
    if (is_dll_name(std::string(base_name(path)))) return std::vector<OtherCopy>{};
    if (!*model) {
      std::error_code cwd_error;
      *model = LinuxSearchOrder::of(platform::MapEnvironment(loader_env), read_ld_cache_text().value_or(std::string()),
                                    multiarch_triplet(platform::detect_host().arch), fs::current_path(cwd_error).string());
    }
    const auto name = fs::path(path).filename().string();
    OwnSearchPaths own;
    if (!requester.empty())
      if (auto elf = read_elf_file(requester)) own = own_search_paths(elf->rpath, elf->runpath, fs::path(requester).parent_path().string());
    std::vector<std::pair<std::string, std::string>> order;  // dir, via
    for (auto& step : (*model)->steps(own, (*model)->cache_dirs_for_name(name))) order.emplace_back(step.resolved, step.via);
    const auto loaded_dir = fs::path(path).parent_path();
    std::error_code e2;
    auto position = [&](const fs::path& dir) -> std::ptrdiff_t {
      for (std::size_t i = 0; i < order.size(); ++i)
        if (fs::equivalent(order[i].first, dir, e2)) return static_cast<std::ptrdiff_t>(i);
      return -1;
    };
    const auto winner = position(loaded_dir);
    std::vector<OtherCopy> out;
    std::vector<fs::path> seen{path};
    auto consider = [&](const std::string& dir) {
      const auto candidate = fs::path(dir) / name;
      if (!fs::exists(candidate, e2)) return;
      for (const auto& s2 : seen)
        if (fs::equivalent(s2, candidate, e2)) return;
      seen.push_back(candidate);
      OtherCopy c;
      c.path = candidate.string();
      const auto facts = describe_library_file(c.path);
      c.version = facts.version;
      c.installed_by_cudnnctl = facts.installed_by_cudnnctl;
      const auto at = position(candidate.parent_path());
      c.relation = at < 0 ? "not on this program's search path"
                   : (winner < 0 || at > winner) ? fmt::format("later in the search order ({})", order[static_cast<std::size_t>(at)].second)
                                                 : fmt::format("earlier in the search order ({}), passed over", order[static_cast<std::size_t>(at)].second);
      out.push_back(std::move(c));
    };
    for (const auto& [dir, via] : order) consider(dir);
    for (const auto& dir : usual) consider(dir);
    return out;
  };
  return s;
}

} // namespace cudnnctl
