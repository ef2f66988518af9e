#include "cudnnctl/catalog/user_catalog.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {

Unexpected<Error> user_catalog_invalid(const std::string& path, const std::string& why) {
  return fail(ErrorCode::catalog_invalid, fmt::format("the user catalog {} is invalid: {}", path, why),
              fmt::format("remove {} and run 'cudnnctl catalog update' to learn the releases again", path), path);
}

nlohmann::json archive_json(const CatalogArchive& a) {
  nlohmann::json hashes = nlohmann::json::array();
  for (const auto& h : a.hashes) {
    nlohmann::json j{{"sha256", h.sha256}, {"confidence", h.confidence}, {"sources", h.sources}};
    if (h.size) j["size"] = *h.size;
    if (!h.md5.empty()) j["md5"] = h.md5;
    hashes.push_back(std::move(j));
  }
  return {{"filename", a.filename}, {"version", a.version},  {"platform", a.platform}, {"cuda_variant", a.cuda_variant},
          {"url", a.url},           {"origin", a.origin},    {"added", a.added},       {"hashes", std::move(hashes)}};
}

} // namespace

std::string default_user_catalog_path() {
  // beside fetch's archives folder: Windows first (%LOCALAPPDATA% is set there only; HOME is set under Git Bash too)
  if (const char* l = std::getenv("LOCALAPPDATA"); l && *l) return native_utf8(path_from_utf8(l) / "cudnnctl" / "catalog.json");
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return utf8_of(path_from_utf8(x) / "cudnnctl" / "catalog.json");
  if (const char* h = std::getenv("HOME"); h && *h) return utf8_of(path_from_utf8(h) / ".cache" / "cudnnctl" / "catalog.json");
  return ".cudnnctl-catalog.json";
}

std::string today_utc() {
  const auto days = std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now());
  const std::chrono::year_month_day ymd{days};
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                     static_cast<unsigned>(ymd.day()));
}

Result<Catalog> load_user_catalog(const std::string& path, const Catalog& builtin) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path_from_utf8(path), ec))) return Catalog::of(path, {}, {});
  auto text = platform::read_input_file(path, "the user catalog");
  if (!text) {
    Error e = text.error();
    e.code = ErrorCode::catalog_unreadable;
    e.hint = fmt::format("remove {} (or fix its permissions) and run 'cudnnctl catalog update'", path);
    return Unexpected<Error>(e);
  }
  auto parsed = Catalog::parse(*text, path);
  if (!parsed) return user_catalog_invalid(path, parsed.error().message);
  for (const auto& a : parsed->archives()) {
    if (auto fault = archive_row_fault(a); !fault.empty()) return user_catalog_invalid(path, fault);
    if (auto why = catalog_contradiction(a, {&builtin}); !why.empty()) return user_catalog_invalid(path, why);
  }
  log::info("catalog: the user catalog {} ({} archives)", path, parsed->archives().size());
  return parsed;
}

Catalog add_manifest(const Catalog& user, const Manifest& m) {
  std::vector<CatalogArchive> archives = user.archives();
  std::vector<ReleaseInfo> releases = user.releases();
  ReleaseInfo info{m.label, m.date, m.url, {m.version}};
  for (const auto& a : m.archives)
    if (!user.find_archive(a.filename)) archives.push_back(a);
  const auto known = std::find_if(releases.begin(), releases.end(), [&](const ReleaseInfo& r) { return r.label == m.label; });
  if (known == releases.end()) releases.push_back(std::move(info));
  return Catalog::of(user.origin(), std::move(archives), std::move(releases));
}

std::string user_catalog_json(const Catalog& user) {
  nlohmann::json archives = nlohmann::json::array();
  for (const auto& a : user.archives()) archives.push_back(archive_json(a));
  nlohmann::json releases = nlohmann::json::array();
  for (const auto& r : user.releases())
    releases.push_back({{"label", r.label}, {"date", r.date}, {"manifest_url", r.manifest_url}, {"builds", r.builds}});
  const nlohmann::json doc{{"schema_version", 1},
                           {"about", "cudnnctl's user catalog: releases learnt from NVIDIA's redistrib manifests (cudnnctl catalog update)"},
                           {"archives", std::move(archives)},
                           {"releases", std::move(releases)}};
  return doc.dump(2) + "\n";
}

Result<void> save_user_catalog(const std::string& path, const Catalog& user) {
  const auto target = path_from_utf8(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec)
    return fail(ErrorCode::io, fmt::format("cannot create the folder of the user catalog {}: {}", path, ec.message()),
                "check the permissions of the cache folder (XDG_CACHE_HOME, ~/.cache)", path);
  const auto tmp = path + ".tmp";
  if (auto written = platform::write_file_durably(tmp, user_catalog_json(user)); !written) {
    fs::remove(path_from_utf8(tmp), ec);
    return written;
  }
  fs::rename(path_from_utf8(tmp), target, ec);
  if (ec) {
    fs::remove(path_from_utf8(tmp), ec);
    return fail(ErrorCode::io, fmt::format("cannot replace the user catalog {}: {}", path, ec.message()), "check the cache folder", path);
  }
  if (target.has_parent_path()) (void)platform::flush_to_disk(utf8_of(target.parent_path()));
  return {};
}

Result<Catalog> builtin_then_user(const std::string& path) {
  const auto& builtin = Catalog::embedded();
  CUDNNCTL_TRY_ASSIGN(auto user, load_user_catalog(path, builtin));
  if (user.archives().empty()) return builtin;
  return Catalog::layered(builtin, user, fmt::format("(built in), then the user catalog {}", path));
}

} // namespace cudnnctl
