#include "cudnnctl/install/placement.hpp"

#include <fmt/format.h>

namespace cudnnctl {

namespace {
ReceiptFile receipt_file(const PlanStep& s, const std::map<std::string, std::uint32_t>& member_crc32) {
  ReceiptFile f;
  f.path = s.target;
  f.size = s.size;
  if (s.kind == StepKind::make_symlink) {
    f.kind = "symlink";
    f.link_target = s.link_target;
  } else {
    f.kind = "file";
    if (const auto c = member_crc32.find(s.source); c != member_crc32.end()) f.crc32 = c->second;
  }
  return f;
}
} // namespace

Placement make_placement(const PlacementInput& in) {
  Placement p;
  p.backup_relative = ".cudnnctl/backup-" + in.id;
  const std::string backup = in.toolkit.root + "/" + p.backup_relative;
  Receipt& r = p.receipt;
  r.id = in.id;
  r.archive = in.archive_file;
  r.canonical_name = in.name.canonical;
  r.sha256 = in.sha256;
  r.verified_by = in.verified_by;
  r.version = in.name.version.to_string();
  r.cuda_variant = in.name.cuda_variant;
  r.platform = in.name.platform;
  r.toolkit_version = in.toolkit.version;
  r.installed_at = in.installed_at;
  r.backup_dir = p.backup_relative;

  Journal& j = p.journal;
  j.id = in.id;
  j.description = fmt::format("install {} into {}", in.name.canonical, in.toolkit.root);
  for (const auto& s : in.plan.steps) {
    const auto target = in.toolkit.root + "/" + s.target;
    if (s.kind == StepKind::remove_stale || s.replaces) {
      j.moves.push_back({target, backup + "/" + s.target});
      r.replaced.push_back({s.target, p.backup_relative + "/" + s.target});
    }
    if (s.kind == StepKind::remove_stale) continue;
    j.moves.push_back({in.staging + "/" + s.source, target});
    r.files.push_back(receipt_file(s, in.member_crc32));
  }
  j.remove_on_commit = {in.staging};
  j.remove_on_rollback = {in.staging, backup};
  return p;
}

} // namespace cudnnctl
