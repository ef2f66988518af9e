#include "cudnnctl/bundle/bundle_receipt.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/platform/host.hpp"

namespace cudnnctl {

namespace {

bool plain_name(const std::string& n) {
  return !n.empty() && n != "." && n != ".." && n.size() < 256 &&
         std::none_of(n.begin(), n.end(), [](char c) { return c == '/' || c == '\\' || c == ':' || c == '\0'; });
}

bool hex_id(const std::string& s) {
  return !s.empty() && s.size() <= 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-'; });
}

bool same_files(const std::vector<BundleFileHash>& v, const std::map<std::string, std::string>& current) {
  if (v.size() != current.size()) return false;
  return std::all_of(v.begin(), v.end(), [&](const BundleFileHash& f) {
    const auto it = current.find(f.name);
    return it != current.end() && it->second == f.sha256;
  });
}

} // namespace

std::string bundle_state_root(const platform::Environment& env) {
  if (const auto v = env.get("CUDNNCTL_BUNDLE_STATE"); v && !v->empty()) return *v;
  const auto base = platform::user_state_dir(env);
  return base.empty() ? std::string() : base + "/cudnnctl/bundles";
}

std::string bundle_dir_key(std::string_view dir, Os os) {
  if (os != Os::windows) return std::string(dir);
  auto key = to_lower_ascii(dir);
  std::replace(key.begin(), key.end(), '\\', '/');
  while (key.size() > 3 && key.back() == '/') key.pop_back();
  return key;
}

std::string bundle_state_dir(const std::string& root, const std::string& dir) {
  const auto key = bundle_dir_key(dir, platform::detect_host().os);
  Sha256 h;
  h.update(key.data(), key.size());
  return root + "/" + h.finish().substr(0, 16);
}

// One list of fields per record, read and written by the same declaration. dir, action, id, originals and
// placed are required (checked in parse_bundle_receipt); the others default to empty.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(BundleFileHash, name, sha256)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(BundleReceipt, dir, action, id, created, archive, archive_sha256, version,
                                                original_version, originals, placed, load_check_skipped,
                                                load_check_note)

std::string receipt_text(const BundleReceipt& r) {
  nlohmann::json j = r;
  j["schema_version"] = 1;
  return j.dump(1);
}

Result<BundleReceipt> parse_bundle_receipt(const std::string& text, const std::string& dir, const std::string& origin) {
  auto bad = [&](const std::string& why) {
    return fail(ErrorCode::bundle_refused, fmt::format("cudnnctl's bundle receipt {} is not one cudnnctl wrote: {}", origin, why),
                "nothing was changed; if you edited it, put it back, or move the folder aside to forget the swap", origin);
  };
  try {
    const auto doc = nlohmann::json::parse(text);
    for (const char* key : {"dir", "action", "id", "originals", "placed"})
      if (!doc.contains(key)) return bad(fmt::format("it has no \"{}\"", key));
    const auto r = doc.get<BundleReceipt>();
    const auto host = platform::detect_host().os;
    if (bundle_dir_key(r.dir, host) != bundle_dir_key(dir, host)) return bad(fmt::format("it is for '{}'", r.dir));
    if (r.action != "swap" && r.action != "unbundle") return bad("unknown action '" + r.action + "'");
    if (!hex_id(r.id)) return bad("its id is not one cudnnctl makes");
    for (const auto* list : {&r.originals, &r.placed})
      for (const auto& f : *list)
        if (!plain_name(f.name)) return bad(fmt::format("'{}' is not a plain file name", f.name));
    return r;
  } catch (const std::exception& e) {
    return bad(e.what());
  }
}

BundleState state_with_receipt(const std::optional<BundleReceipt>& r, const std::map<std::string, std::string>& current,
                               BundleState by_record, std::string* note) {
  if (!r) return by_record;
  if (r->action == "swap" && same_files(r->placed, current)) return BundleState::swapped;
  if (r->action == "unbundle" && current.empty()) return BundleState::unbundled;
  // pip's reinstall writes the RECORD's files again and leaves a sub-library the swap added
  auto without_added = current;
  for (const auto& f : r->placed)
    if (std::none_of(r->originals.begin(), r->originals.end(), [&](const BundleFileHash& o) { return o.name == f.name; }) &&
        without_added.count(f.name) && without_added.at(f.name) == f.sha256)
      without_added.erase(f.name);
  if (same_files(r->originals, without_added) || by_record == BundleState::original) {
    if (note) *note = fmt::format("the package manager put its files back after cudnnctl's {}", r->action);
    return BundleState::reverted;
  }
  if (note) *note = fmt::format("the files differ from what cudnnctl's {} left and from the package's own", r->action);
  return BundleState::modified;
}

} // namespace cudnnctl
