#include "cudnnctl/catalog/manifest.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/contract/version.hpp"

namespace cudnnctl {

namespace {

using nlohmann::json;

// The platforms NVIDIA publishes redist cuDNN archives for, spelt as manifests (and archive_name) spell them.
constexpr std::array<std::string_view, 6> k_manifest_platforms{"linux-x86_64",  "linux-sbsa",     "linux-aarch64",
                                                               "linux-ppc64le", "windows-x86_64", "windows-arm64"};
// The CUDA majors of the redist era's archives (8.3 and later: cuda10.2 ... cuda13).
constexpr std::array<std::string_view, 4> k_manifest_cuda_majors{"10", "11", "12", "13"};
// The fields of one archive entry.
constexpr std::array<std::string_view, 4> k_entry_fields{"relative_path", "sha256", "md5", "size"};
// An archive is never larger than this (NVIDIA's largest are about 2 GB).
constexpr std::uint64_t k_max_archive_bytes = 1ULL << 40;

template <std::size_t N> bool one_of(const std::array<std::string_view, N>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

Unexpected<Error> refused(const std::string& url, const std::string& why) {
  return fail(ErrorCode::manifest_refused, fmt::format("the manifest {} is refused: {}", url, why),
              "nothing was added to the user catalog; a mirror must serve NVIDIA's manifests unchanged (check --mirror)", url);
}

// The offset of the first byte that is not UTF-8, or npos.
std::size_t first_non_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto [cp, len] = decode_utf8(s.substr(i));
    if (cp == 0xFFFD && len == 1) return i;
    i += len;
  }
  return std::string_view::npos;
}

bool is_date(std::string_view d) {
  return d.size() == 10 && d[4] == '-' && d[7] == '-' && all_digits(d.substr(0, 4)) && all_digits(d.substr(5, 2)) &&
         all_digits(d.substr(8, 2));
}

// A size as NVIDIA writes it (a decimal string) or as a JSON count: a positive byte count.
std::optional<std::uint64_t> size_of(const json& j) {
  if (j.is_number_unsigned()) {
    const auto v = j.get<std::uint64_t>();
    return v > 0 && v <= k_max_archive_bytes ? std::optional(v) : std::nullopt;
  }
  if (!j.is_string()) return std::nullopt;
  const auto s = j.get<std::string>();
  if (s.empty() || s.size() > 13 || !all_digits(s) || s[0] == '0') return std::nullopt;
  const auto v = std::stoull(s);
  return v <= k_max_archive_bytes ? std::optional(v) : std::nullopt;
}

} // namespace

std::string catalog_contradiction(const CatalogArchive& row, const std::vector<const Catalog*>& known) {
  const auto& mine = row.hashes.front();
  for (const auto* c : known) {
    const auto* a = c ? c->find_archive(row.filename) : nullptr;
    if (!a) continue;
    const auto same = std::find_if(a->hashes.begin(), a->hashes.end(), [&](const KnownHash& h) { return h.sha256 == mine.sha256; });
    if (same == a->hashes.end())
      return fmt::format("it gives {} the SHA-256 {}, the catalog {} has {} for it (a contradiction: refused, fail-closed)", row.filename,
                         mine.sha256, c->origin(), a->hashes.front().sha256);
    if (same->size && mine.size && *same->size != *mine.size)
      return fmt::format("it gives {} {} bytes, the catalog {} has {} bytes for the same SHA-256 (a contradiction: refused, fail-closed)",
                         row.filename, *mine.size, c->origin(), *same->size);
  }
  return {};
}

namespace {

struct ManifestHead {
  std::string label, version, date;
  std::vector<std::string> cuda_variants;  // the cuda_variant list (empty in manifests before 9.0)
};

// One archive entry of `platform` (`variant`: the cudaNN key's NN; empty for an entry at the platform's level).
Result<CatalogArchive> read_entry(const json& e, const std::string& platform, const std::string& variant, const ManifestHead& head,
                                  const std::string& url, const std::string& today) {
  const auto where = fmt::format("{}{}", platform, variant.empty() ? "" : " cuda" + variant);
  if (!e.is_object()) return refused(url, fmt::format("the entry of {} is not an object", where));
  for (const auto& [key, value] : e.items())
    if (!one_of(k_entry_fields, key)) return refused(url, fmt::format("the entry of {} has an unknown field '{}'", where, key));
  if (!e.contains("relative_path") || !e["relative_path"].is_string() || !e.contains("sha256") || !e["sha256"].is_string() ||
      !e.contains("size"))
    return refused(url, fmt::format("the entry of {} lacks a relative_path, sha256 or size", where));
  const auto rel = e["relative_path"].get<std::string>();
  const auto prefix = "cudnn/" + platform + "/";
  if (rel.find("..") != std::string::npos) return refused(url, fmt::format("the relative_path '{}' of {} contains '..'", rel, where));
  if (!rel.starts_with(prefix) || rel.find_first_of("/\\", prefix.size()) != std::string::npos)
    return refused(url, fmt::format("the relative_path '{}' of {} is not a file directly below {}", rel, where, prefix));
  CatalogArchive row;
  row.filename = rel.substr(prefix.size());
  row.version = head.version;
  row.platform = platform;
  row.url = nvidia_archive_url(rel);
  row.origin = url;
  row.added = today;
  if (auto parsed = parse_archive_name(row.filename); parsed) row.cuda_variant = variant.empty() ? parsed->cuda_variant : variant;
  if (auto fault = archive_row_fault(row); !fault.empty()) return refused(url, fmt::format("{} ({})", fault, where));
  const auto major = row.cuda_variant.substr(0, row.cuda_variant.find('.'));
  if (!one_of(k_manifest_cuda_majors, major) ||
      (!head.cuda_variants.empty() && std::find(head.cuda_variants.begin(), head.cuda_variants.end(), major) == head.cuda_variants.end()))
    return refused(url, fmt::format("{} is built for CUDA {}, not one of the manifest's CUDA variants", row.filename, row.cuda_variant));
  KnownHash h;
  h.sha256 = to_lower_ascii(e["sha256"].get<std::string>());
  if (!is_sha256_hex(h.sha256)) return refused(url, fmt::format("the sha256 of {} is not 64 hex digits", row.filename));
  h.size = size_of(e["size"]);
  if (!h.size) return refused(url, fmt::format("the size of {} is not a decimal byte count", row.filename));
  if (e.contains("md5")) {
    if (!e["md5"].is_string() || e["md5"].get<std::string>().size() != 32) return refused(url, fmt::format("the md5 of {} is not 32 hex digits", row.filename));
    h.md5 = to_lower_ascii(e["md5"].get<std::string>());
  }
  h.confidence = "A";
  h.sources = {"nvidia-manifest: " + url};
  row.hashes.push_back(std::move(h));
  return row;
}

// The document's head: the release label, the 4-part version, the date and the CUDA variant list.
Result<ManifestHead> read_head(const json& doc, const std::string& url, std::string_view label) {
  if (!doc.is_object() || !doc.contains("cudnn") || !doc["cudnn"].is_object()) return refused(url, "it has no \"cudnn\" object");
  if (doc.contains("release_product") && doc["release_product"] != "cudnn") return refused(url, "its release_product is not cudnn");
  ManifestHead head;
  if (!doc.contains("release_label") || !doc["release_label"].is_string() || !is_release_label(doc["release_label"].get<std::string>()))
    return refused(url, "its release_label is missing or not a version label");
  head.label = doc["release_label"].get<std::string>();
  if (!label.empty() && head.label != label) return refused(url, fmt::format("its release_label is {}, its address names {}", head.label, label));
  const auto& c = doc["cudnn"];
  const auto version = c.contains("version") && c["version"].is_string() ? parse_version(c["version"].get<std::string>()) : parse_version("");
  if (!version || version->count != 4) return refused(url, "cudnn.version is not a 4-part version (9.30.0.7)");
  head.version = version->to_string();
  if (head.version != c["version"].get<std::string>()) return refused(url, "cudnn.version is not written in NVIDIA's spelling");
  if (version->release_label() != head.label && head.version != head.label)
    return refused(url, fmt::format("cudnn.version {} is not a build of release {}", head.version, head.label));
  if (doc.contains("release_date")) {
    if (!doc["release_date"].is_string() || !is_date(doc["release_date"].get<std::string>())) return refused(url, "its release_date is not YYYY-MM-DD");
    head.date = doc["release_date"].get<std::string>();
  }
  if (c.contains("cuda_variant")) {
    if (!c["cuda_variant"].is_array() || c["cuda_variant"].empty()) return refused(url, "cudnn.cuda_variant is not a list of CUDA majors");
    for (const auto& v : c["cuda_variant"]) {
      if (!v.is_string() || !one_of(k_manifest_cuda_majors, v.get<std::string>()))
        return refused(url, fmt::format("cudnn.cuda_variant lists {}, not a CUDA major cuDNN archives are built for", v.dump()));
      head.cuda_variants.push_back(v.get<std::string>());
    }
  }
  return head;
}

// Every archive of the cudnn object, platform by platform.
Result<std::vector<CatalogArchive>> read_archives(const json& c, const ManifestHead& head, const std::string& url, const std::string& today) {
  std::vector<CatalogArchive> out;
  for (const auto& [key, value] : c.items()) {
    if (!value.is_object()) continue;  // name, license, version, cuda_variant
    if (!one_of(k_manifest_platforms, key)) return refused(url, fmt::format("it lists an unknown platform '{}'", key));
    const bool flat = value.contains("relative_path");
    json flat_entry = json::object();
    for (const auto& [k, v] : value.items()) {
      if (one_of(k_entry_fields, k)) {
        flat_entry[k] = v;
        continue;
      }
      if (!k.starts_with("cuda") || !one_of(k_manifest_cuda_majors, std::string_view(k).substr(4)))
        return refused(url, fmt::format("{} has an unknown CUDA variant '{}'", key, k));
      CUDNNCTL_TRY_ASSIGN(auto row, read_entry(v, key, k.substr(4), head, url, today));
      out.push_back(std::move(row));
    }
    if (flat) {
      CUDNNCTL_TRY_ASSIGN(auto row, read_entry(flat_entry, key, "", head, url, today));
      out.push_back(std::move(row));
    } else if (!flat_entry.empty()) {
      return refused(url, fmt::format("{} has an entry without a relative_path", key));
    }
  }
  return out;
}

} // namespace

bool is_release_label(std::string_view text) {
  const auto parts = split(text, '.');
  if (parts.size() < 2 || parts.size() > 4) return false;
  return std::all_of(parts.begin(), parts.end(), [](std::string_view p) { return !p.empty() && p.size() <= 4 && all_digits(p); });
}

std::vector<std::string> manifest_labels(std::string_view listing) {
  constexpr std::string_view stem = "redistrib_";
  std::set<std::string> seen;
  for (auto at = listing.find(stem); at != std::string_view::npos; at = listing.find(stem, at + 1)) {
    auto end = at + stem.size();
    while (end < listing.size() && (is_ascii_digit(listing[end]) || listing[end] == '.')) ++end;
    auto label = listing.substr(at + stem.size(), end - at - stem.size());
    if (!label.ends_with(".") || listing.substr(end, 4) != "json") continue;
    label.remove_suffix(1);
    if (is_release_label(label)) seen.emplace(label);
  }
  std::vector<std::string> out(seen.begin(), seen.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return compare_dotted(a, b) < 0; });
  return out;
}

std::string nvidia_archive_url(std::string_view relative_path) {
  return fmt::format("{}{}{}", k_nvidia_server, k_redist_path, relative_path);
}

std::string archive_row_fault(const CatalogArchive& row) {
  auto name = parse_archive_name(row.filename);
  if (!name) return fmt::format("the file name {} does not parse as a cuDNN archive name: {}", row.filename, name.error().message);
  if (name->canonical != row.filename || name->era == NamingEra::legacy)
    return fmt::format("the file name {} is not NVIDIA's redist spelling ({})", row.filename, name->canonical);
  if (name->version.to_string() != row.version)
    return fmt::format("the file name {} is cuDNN {}, the release is {}", row.filename, name->version.to_string(), row.version);
  if (name->platform != row.platform) return fmt::format("the file name {} is for {}, listed under {}", row.filename, name->platform, row.platform);
  if (name->cuda_variant != row.cuda_variant)
    return fmt::format("the file name {} is built for CUDA {}, listed as cuda{}", row.filename, name->cuda_variant, row.cuda_variant);
  if (row.url != nvidia_archive_url("cudnn/" + row.platform + "/" + row.filename))
    return fmt::format("the address of {} is not NVIDIA's path for it: {}", row.filename, row.url);
  return {};
}

Result<Manifest> parse_manifest(std::string_view bytes, const std::string& url, std::string_view label,
                                const std::vector<const Catalog*>& known, const std::string& today) {
  if (bytes.size() > k_manifest_max_bytes)
    return refused(url, fmt::format("it is larger than the {} bytes a manifest may have", k_manifest_max_bytes));
  if (const auto bad = first_non_utf8(bytes); bad != std::string_view::npos)
    return refused(url, fmt::format("it is not UTF-8 text (byte {} is not)", bad));
  json doc;
  try {
    doc = json::parse(bytes);
  } catch (const json::exception& e) {
    return refused(url, fmt::format("it is not valid JSON: {}", e.what()));
  }
  try {
    CUDNNCTL_TRY_ASSIGN(auto head, read_head(doc, url, label));
    CUDNNCTL_TRY_ASSIGN(auto archives, read_archives(doc["cudnn"], head, url, today));
    if (archives.empty()) return refused(url, "it lists no archive");
    std::set<std::string> names;
    for (const auto& a : archives) {
      if (!names.insert(a.filename).second) return refused(url, fmt::format("it lists {} twice", a.filename));
      if (auto why = catalog_contradiction(a, known); !why.empty()) return refused(url, why);
    }
    return Manifest{head.label, head.version, head.date, url, std::move(archives)};
  } catch (const json::exception& e) {
    return refused(url, e.what());
  }
}

} // namespace cudnnctl
