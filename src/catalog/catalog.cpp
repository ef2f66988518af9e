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
std::string_view catalog_json();  // data/cudnn-catalog.json, embedded by CMake
}

namespace {

using nlohmann::json;

Unexpected<Error> invalid(const std::string& origin, std::string what) {
  return fail(ErrorCode::catalog_invalid, fmt::format("the release catalog {} is invalid: {}", origin, what),
              "use a catalog written by tools/build_catalog.py (see docs/catalog.md)", origin);
}

} // namespace

// The catalog's records, each field named once; a field left out keeps its default (empty). KnownHash is
// read by hand below: its size is optional and its values are checked.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(CatalogArchive, filename, version, platform, cuda_variant, url, origin, added)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SupportRow, release, cuda_variant, cuda_toolkits, min_driver_linux,
                                                min_driver_windows, compute_capabilities, source, notes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ReleaseInfo, label, date, manifest_url, builds)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LegacyPin, filename, release, source)

namespace {

// A null in the catalog means "not known": the same as leaving the field out. Only as deep as the catalog's
// records go (document, list, record, hashes, hash): a hostile file nested deeper cannot exhaust the stack.
void drop_nulls(json& j, int depth = 0) {
  if (depth > 5) return;
  if (j.is_array())
    for (auto& e : j) drop_nulls(e, depth + 1);
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end();) {
    if (it->is_null()) {
      it = j.erase(it);
    } else {
      drop_nulls(*it, depth + 1);
      ++it;
    }
  }
}

// Each element of doc[key] (when it is a list) as a T; what a record lacks is said by `check`.
template <class T, class Check>
std::optional<std::string> read_list(const json& doc, const char* key, std::vector<T>& out, Check check) {
  if (!doc.contains(key) || !doc[key].is_array()) return std::nullopt;
  for (const auto& e : doc[key]) {
    auto v = e.template get<T>();
    if (auto why = check(v)) return why;
    out.push_back(std::move(v));
  }
  return std::nullopt;
}

// The archives and their hashes; the first fault found, if any.
std::optional<std::string> read_archives(const json& doc, std::vector<CatalogArchive>& archives) {
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < doc["archives"].size(); ++i) {
    const auto& a = doc["archives"][i];
    auto ar = a.get<CatalogArchive>();
    if (ar.filename.empty()) return fmt::format("archive #{} has no filename", i);
    if (!a.contains("hashes") || !a["hashes"].is_array() || a["hashes"].empty()) return fmt::format("{} has no hashes", ar.filename);
    for (const auto& h : a["hashes"]) {
      KnownHash kh;
      kh.sha256 = to_lower_ascii(h.value("sha256", ""));
      if (!is_sha256_hex(kh.sha256)) return fmt::format("{} has a sha256 that is not 64 hex digits: '{}'", ar.filename, kh.sha256);
      if (h.contains("size")) {
        if (!h["size"].is_number_unsigned()) return fmt::format("{} hash {} has a size that is not a byte count", ar.filename, kh.sha256);
        kh.size = h["size"].get<std::uint64_t>();
      }
      kh.md5 = h.value("md5", "");
      if (h.contains("size_note") && h["size_note"].is_string()) kh.size_note = h["size_note"].get<std::string>();
      kh.confidence = h.value("confidence", "");
      kh.sources = h.value("sources", std::vector<std::string>{});
      kh.notes = h.value("notes", std::vector<std::string>{});
      if (kh.sources.empty()) return fmt::format("{} hash {} names no source", ar.filename, kh.sha256);
      if (!seen.emplace(ar.filename, kh.sha256).second) return fmt::format("{} lists hash {} twice", ar.filename, kh.sha256);
      ar.hashes.push_back(std::move(kh));
    }
    archives.push_back(std::move(ar));
  }
  return std::nullopt;
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
  drop_nulls(doc);

  Catalog c;
  c.m_origin = origin;
  try {
    if (auto why = read_archives(doc, c.m_archives)) return invalid(origin, *why);
    const auto none = [](const auto&) { return std::optional<std::string>(); };
    auto why = read_list(doc, "support", c.m_support, [](const SupportRow& r) {
      return r.release.empty() || r.source.empty() ? std::optional<std::string>("a support row has no release or no source")
                                                   : std::nullopt;
    });
    if (!why) why = read_list(doc, "releases", c.m_releases, none);
    if (!why) why = read_list(doc, "legacy_pins", c.m_pins, [](const LegacyPin& p) {
      return p.filename.empty() || p.release.empty() || p.source.empty()
                 ? std::optional<std::string>("a legacy pin has no filename, release or source")
                 : std::nullopt;
    });
    if (why) return invalid(origin, *why);
  } catch (const json::exception& e) {
    return invalid(origin, e.what());
  }
  return c;
}


Catalog Catalog::of(std::string origin, std::vector<CatalogArchive> archives, std::vector<ReleaseInfo> releases) {
  Catalog c;
  c.m_origin = std::move(origin);
  c.m_archives = std::move(archives);
  c.m_releases = std::move(releases);
  return c;
}

Catalog Catalog::layered(const Catalog& first, const Catalog& then, std::string origin) {
  Catalog c = first;
  c.m_origin = std::move(origin);
  for (const auto& a : then.m_archives)
    if (!first.find_archive(a.filename)) c.m_archives.push_back(a);
  for (const auto& r : then.m_releases)
    if (!first.release(r.label)) c.m_releases.push_back(r);
  return c;
}

const LegacyPin* Catalog::legacy_pin(std::string_view filename) const {
  for (const auto& p : m_pins)
    if (p.filename == filename) return &p;
  return nullptr;
}

const Catalog& Catalog::embedded() {
  static const Catalog catalog = [] {
    auto parsed = parse(embedded::catalog_json(),
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
