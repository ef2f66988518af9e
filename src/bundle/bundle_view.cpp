// Reading bundles with cudnnctl's part of their state (receipts), without changing anything: what `bundle
// list` and the doctor show. Needs no archive reader (the Windows test build compiles it without one).
#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_ops.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"

namespace fsys = std::filesystem;

namespace cudnnctl {

Unexpected<Error> bundle_refused(std::string message, std::string hint, std::string path) {
  return fail(ErrorCode::bundle_refused, std::move(message), std::move(hint), std::move(path));
}

std::string bundle_normal_dir(const std::string& dir) {
  std::error_code ec;
  auto p = fsys::absolute(path_from_utf8(dir), ec).lexically_normal();
  auto s = utf8_of(p);
  while (s.size() > 1 && (s.back() == '/' || s.back() == '\\')) s.pop_back();
  return s;
}

Result<std::optional<BundleReceipt>> bundle_receipt_of(const BundleContext& ctx, const std::string& sd, const std::string& dir) {
  const auto path = sd + "/receipt.json";
  if (ctx.fs->entry(path) == FsEntry::missing) return std::optional<BundleReceipt>();
  if (ctx.fs->entry(path) != FsEntry::file)
    return bundle_refused(fmt::format("{} is not a file cudnnctl wrote; nothing was changed", path), "remove it", path);
  CUDNNCTL_TRY_ASSIGN(auto text, ctx.fs->read_text(path));
  CUDNNCTL_TRY_ASSIGN(auto r, parse_bundle_receipt(text, dir, path));
  return std::optional<BundleReceipt>(std::move(r));
}

std::vector<std::string> bundle_file_names(const std::vector<BundleFileHash>& v) {
  std::vector<std::string> out;
  for (const auto& f : v) out.push_back(f.name);
  return out;
}

Result<BundleView> view_bundle(const BundleContext& ctx, const std::string& dir_in) {
  const auto dir = bundle_normal_dir(dir_in);
  CUDNNCTL_TRY_ASSIGN(auto b, read_bundle(dir));
  BundleView v{std::move(b), std::nullopt};
  if (!ctx.state_root.empty()) {
    const auto sd = bundle_state_dir(ctx.state_root, dir);
    CUDNNCTL_TRY_ASSIGN(auto r, bundle_receipt_of(ctx, sd, dir));
    v.receipt = std::move(r);
  }
  auto& bb = v.bundle;
  bb.state = state_with_receipt(v.receipt, bb.sha256, bb.state, &bb.state_note);
  if (bb.state == BundleState::swapped) {
    bb.version = v.receipt->version;
    bb.version_source = "cudnnctl's swap receipt";
  } else if (bb.state == BundleState::unbundled) {
    bb.version = v.receipt->original_version;
    bb.files = bundle_file_names(v.receipt->originals);
    bb.version_source = "cudnnctl's receipt (set aside)";
  }
  return v;
}

std::vector<std::string> bundles_with_receipts(const BundleContext& ctx) {
  std::vector<std::string> out;
  std::error_code ec;
  if (ctx.state_root.empty()) return out;
  for (const auto& e : fsys::directory_iterator(path_from_utf8(ctx.state_root), ec)) {
    const auto sd = utf8_of(e.path());
    auto dir = ctx.fs->read_text(sd + "/bundle-dir");
    if (dir && ctx.fs->entry(sd + "/receipt.json") == FsEntry::file && bundle_state_dir(ctx.state_root, *dir) == sd) out.push_back(*dir);
  }
  std::sort(out.begin(), out.end());
  return out;
}

BundleScan scan_bundles(const BundleContext& ctx, const std::vector<std::string>& sites) {
  std::set<std::string> dirs;
  for (const auto& site : sites)
    for (const auto& d : find_bundle_dirs(site)) dirs.insert(d);
  for (const auto& d : bundles_with_receipts(ctx)) dirs.insert(d);
  BundleScan scan;
  std::set<std::string> seen;
  for (const auto& d : dirs) {
    auto v = view_bundle(ctx, d);
    if (!v) {
      scan.problems.push_back(v.error().message);
      continue;
    }
    if (seen.insert(v->bundle.dir).second) scan.views.push_back(std::move(*v));
  }
  return scan;
}

} // namespace cudnnctl
