#include "cudnnctl/catalog/catalog.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {

namespace embedded {
extern const unsigned char catalog_json[];
extern const std::size_t catalog_json_size;
} // namespace embedded

namespace {

using nlohmann::json;

std::string str(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  const auto it = j.find(key);
  if (it != j.end() && it->is_array())
    for (const auto& e : *it)
      if (e.is_string()) out.push_back(e.get<std::string>());
  return out;
}

Unexpected<Error> invalid(const std::string& origin, std::string what) {
  return fail(ErrorCode::catalog_invalid, fmt::format("the release catalog {} is invalid: {}", origin, what),
              "use a catalog written by tools/build_catalog.py (see docs/catalog.md)", origin);
}

} // namespace

Result<Catalog> Catalog::parse(std::string_view json_text, std::string origin) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    return fail(ErrorCode::catalog_invalid, fmt::format("the release catalog {} is not valid JSON: {}", origin, e.what()),
                "use a catalog written by tools/build_catalog.py (see docs/catalog.md)", origin);
  }
  if (!doc.is_object() || !doc.contains("archives") || !doc["archives"].is_array())
    return invalid(origin, "it has no \"archives\" list");
  if (doc.value("schema_version", 0) != 1)
    return invalid(origin, fmt::format("schema_version is {}, this cudnnctl reads version 1", doc.value("schema_version", 0)));

  Catalog c;
  c.m_origin = origin;
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < doc["archives"].size(); ++i) {
    const auto& a = doc["archives"][i];
    CatalogArchive ar;
    ar.filename = str(a, "filename");
    ar.version = str(a, "version");
    ar.platform = str(a, "platform");
    ar.cuda_variant = str(a, "cuda_variant");
    ar.url = str(a, "url");
    if (ar.filename.empty()) return invalid(origin, fmt::format("archive #{} has no filename", i));
    if (!a.contains("hashes") || !a["hashes"].is_array() || a["hashes"].empty())
      return invalid(origin, fmt::format("{} has no hashes", ar.filename));
    for (const auto& h : a["hashes"]) {
      KnownHash kh;
      kh.sha256 = to_lower_ascii(str(h, "sha256"));
      if (!is_sha256_hex(kh.sha256))
        return invalid(origin, fmt::format("{} has a sha256 that is not 64 hex digits: '{}'", ar.filename, kh.sha256));
      if (h.contains("size") && h["size"].is_number_unsigned()) kh.size = h["size"].get<std::uint64_t>();
      kh.md5 = str(h, "md5");
      kh.confidence = str(h, "confidence");
      kh.sources = strings(h, "sources");
      kh.notes = strings(h, "notes");
      if (kh.sources.empty()) return invalid(origin, fmt::format("{} hash {} names no source", ar.filename, kh.sha256));
      if (!seen.emplace(ar.filename, kh.sha256).second)
        return invalid(origin, fmt::format("{} lists hash {} twice", ar.filename, kh.sha256));
      ar.hashes.push_back(std::move(kh));
    }
    c.m_archives.push_back(std::move(ar));
  }
  if (doc.contains("support") && doc["support"].is_array()) {
    for (const auto& s : doc["support"]) {
      SupportRow r;
      r.release = str(s, "release");
      r.cuda_variant = str(s, "cuda_variant");
      r.cuda_toolkits = strings(s, "cuda_toolkits");
      r.min_driver_linux = str(s, "min_driver_linux");
      r.min_driver_windows = str(s, "min_driver_windows");
      r.compute_capabilities = strings(s, "compute_capabilities");
      r.source = str(s, "source");
      r.notes = strings(s, "notes");
      if (r.release.empty() || r.source.empty())
        return invalid(origin, "a support row has no release or no source");
      c.m_support.push_back(std::move(r));
    }
  }
  if (doc.contains("releases") && doc["releases"].is_array()) {
    for (const auto& s : doc["releases"]) {
      ReleaseInfo r;
      r.label = str(s, "label");
      r.date = str(s, "date");
      r.manifest_url = str(s, "manifest_url");
      r.builds = strings(s, "builds");
      c.m_releases.push_back(std::move(r));
    }
  }
  if (doc.contains("legacy_pins") && doc["legacy_pins"].is_array()) {
    for (const auto& s : doc["legacy_pins"]) {
      LegacyPin p{str(s, "filename"), str(s, "release"), str(s, "source")};
      if (p.filename.empty() || p.release.empty() || p.source.empty())
        return invalid(origin, "a legacy pin has no filename, release or source");
      c.m_pins.push_back(std::move(p));
    }
  }
  return c;
}

const LegacyPin* Catalog::legacy_pin(std::string_view filename) const {
  for (const auto& p : m_pins)
    if (p.filename == filename) return &p;
  return nullptr;
}

const Catalog& Catalog::embedded() {
  static const Catalog catalog = [] {
    auto parsed = parse(std::string_view(reinterpret_cast<const char*>(embedded::catalog_json), embedded::catalog_json_size),
                        "(built in)");
    // The build validated this file (tests parse it); a failure here is a broken build.
    return parsed ? std::move(*parsed) : Catalog{};
  }();
  return catalog;
}

Result<Catalog> Catalog::load_file(const std::string& path) {
  auto text = platform::read_input_file(path, "the release catalog");
  if (!text) {
    Error e = text.error();
    e.code = ErrorCode::catalog_unreadable;
    if (e.hint.empty() || e.hint == "check the path given") e.hint = "check the path given to --catalog";
    return Unexpected<Error>(e);
  }
  return parse(*text, path);
}

const CatalogArchive* Catalog::find_archive(std::string_view filename) const {
  for (const auto& a : m_archives)
    if (a.filename == filename) return &a;
  return nullptr;
}

std::vector<const SupportRow*> Catalog::support_for(std::string_view release, std::string_view cuda_variant) const {
  std::vector<const SupportRow*> out;
  const auto major = cuda_variant.substr(0, cuda_variant.find('.'));
  for (const auto& s : m_support)
    if (s.release == release && s.cuda_variant == major) out.push_back(&s);
  return out;
}

const ReleaseInfo* Catalog::release(std::string_view label) const {
  for (const auto& r : m_releases)
    if (r.label == label) return &r;
  return nullptr;
}

const ReleaseInfo* Catalog::newest_release() const {
  const ReleaseInfo* best = nullptr;
  for (const auto& r : m_releases)
    if (!best || compare_dotted(r.label, best->label) > 0) best = &r;
  return best;
}

} // namespace cudnnctl
