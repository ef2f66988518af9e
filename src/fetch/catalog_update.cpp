#include "cudnnctl/fetch/catalog_update.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/catalog/download_cap.hpp"
#include "cudnnctl/catalog/user_catalog.hpp"
#include "cudnnctl/fetch/download_refusal.hpp"
#include "cudnnctl/platform/http.hpp"

namespace cudnnctl {

std::string redist_base_url(const std::string& mirror) {
  std::string base = mirror.empty() ? std::string(k_nvidia_server) : mirror;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/" + std::string(k_redist_path);
}

std::string manifest_url(const std::string& mirror, const std::string& label) {
  return redist_base_url(mirror) + "redistrib_" + label + ".json";
}

Result<std::string> http_get_text(const std::string& url, std::size_t max_bytes, const std::string& what, int stall_timeout_s,
                                  ErrorCode too_large) {
  std::string body;
  bool over = false;
  platform::HttpGet get;
  get.url = url;
  get.stall_timeout_s = stall_timeout_s;
  log::debug("HTTP GET {} ({}, at most {} bytes kept)", url, what, max_bytes);
  const auto on_head = [&](const platform::HttpHead& h) { return !(over = h.content_length && *h.content_length > max_bytes); };
  const auto got = platform::http_get(get, [&](const char* data, std::size_t n) {
    const auto room = max_bytes + 1 - body.size();  // one byte past the cap says "larger"
    body.append(data, std::min(n, room));
    over = body.size() > max_bytes;
    return !over;
  }, on_head);
  if (over)  // announced or sent: refused before it is parsed, nothing of it kept
    return fail(too_large, fmt::format("{} {} is refused: it is larger than the {} bytes it may have", what, url, max_bytes),
                "check --mirror: it must serve NVIDIA's compute/cudnn/redist/ files unchanged", url);
  if (!got.ok && got.redirect_refused) return Unexpected<Error>(refused_redirect(url, got.error));
  if (!got.ok)
    return fail(ErrorCode::io, fmt::format("cannot read {} from {}: {}", what, url, got.error),
                !got.hint.empty()    ? got.hint
                : got.status == 404 ? "the server has no such file: check the version and --mirror"
                                    : "check the network and --mirror (a mirror serves NVIDIA's paths below compute/cudnn/redist/)",
                url);
  return body;
}

namespace {

bool catalog_knows(const Catalog& c, const std::string& label) { return c.release(label) != nullptr; }

// The labels to read: those given, or the listing's that neither catalog knows.
Result<std::vector<std::string>> labels_to_read(const CatalogUpdateRequest& req, const Catalog& builtin, const Catalog& user,
                                                CatalogUpdateOutcome& out) {
  if (!req.labels.empty()) {
    for (const auto& l : req.labels)
      if (!is_release_label(l))
        return fail(ErrorCode::usage, fmt::format("'{}' is not a release label", l), "give a label as NVIDIA names manifests, e.g. 9.19.0");
    return req.labels;
  }
  out.listing_url = redist_base_url(req.mirror);
  CUDNNCTL_TRY_ASSIGN(auto page, http_get_text(out.listing_url, k_listing_max_bytes, "the manifest list", req.stall_timeout_s));
  out.listed = manifest_labels(page);
  if (out.listed.empty())
    return fail(ErrorCode::io, fmt::format("the page {} links no redistrib_<label>.json manifest", out.listing_url),
                "check --mirror: it must serve NVIDIA's compute/cudnn/redist/ listing", out.listing_url);
  std::vector<std::string> unknown;
  for (const auto& l : out.listed) (catalog_knows(builtin, l) || catalog_knows(user, l) ? out.already_known : unknown).push_back(l);
  return unknown;
}

Result<Manifest> read_manifest(const std::string& label, const std::string& mirror, const Catalog& builtin, const Catalog& user,
                               int stall_timeout_s) {
  const auto url = manifest_url(mirror, label);
  CUDNNCTL_TRY_ASSIGN(auto text, http_get_text(url, k_manifest_max_bytes, "the release manifest", stall_timeout_s, ErrorCode::manifest_refused));
  CUDNNCTL_TRY_ASSIGN(auto manifest, parse_manifest(text, url, label, {&builtin, &user}, today_utc()));
  // an archive learnt is downloaded to exactly the manifest's size; a size past the cap is no cuDNN archive
  const auto cap = archive_download_cap(builtin);
  for (const auto& a : manifest.archives)
    if (a.hashes.front().size.value_or(0) > cap)
      return fail(ErrorCode::manifest_refused,
                  fmt::format("the manifest {} is refused: it gives {} {} bytes, more than the {}-byte download cap (1.5 times the largest archive the "
                              "built-in catalog knows)", url, a.filename, *a.hashes.front().size, cap),
                  "nothing was added to the user catalog; a mirror must serve NVIDIA's manifests unchanged (check --mirror)", url);
  return manifest;
}

} // namespace

Result<CatalogUpdateOutcome> update_user_catalog(const CatalogUpdateRequest& req, const Catalog& builtin) {
  CatalogUpdateOutcome out;
  CUDNNCTL_TRY_ASSIGN(auto user, load_user_catalog(req.user_catalog, builtin));
  CUDNNCTL_TRY_ASSIGN(auto labels, labels_to_read(req, builtin, user, out));
  const auto before_json = user_catalog_json(user);
  for (const auto& label : labels) {
    CUDNNCTL_TRY_ASSIGN(auto manifest, read_manifest(label, req.mirror, builtin, user, req.stall_timeout_s));
    const auto before = user.archives().size();
    user = add_manifest(user, manifest);
    out.archives_added += user.archives().size() - before;
    log::info("catalog update: {} ({} archives, {} new)", manifest.url, manifest.archives.size(), user.archives().size() - before);
    out.learnt.push_back(std::move(manifest));
  }
  if (user_catalog_json(user) == before_json) return out;  // nothing new: the file is left as it is
  CUDNNCTL_TRY(save_user_catalog(req.user_catalog, user));
  out.written = true;
  return out;
}

Result<Manifest> learn_release(const std::string& label, const std::string& mirror, const std::string& user_catalog, const Catalog& builtin) {
  CUDNNCTL_TRY_ASSIGN(auto user, load_user_catalog(user_catalog, builtin));
  CUDNNCTL_TRY_ASSIGN(auto manifest, read_manifest(label, mirror, builtin, user, 60));
  CUDNNCTL_TRY(save_user_catalog(user_catalog, add_manifest(user, manifest)));
  return manifest;
}

} // namespace cudnnctl
