#include "cudnnctl/install/installer.hpp"
#include "cudnnctl/install/owned_files.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/archive/reader.hpp"
#include "cudnnctl/archive/verified_extract.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/env/display_path.hpp"
#include "cudnnctl/install/content_check.hpp"
#include "cudnnctl/install/placement.hpp"
#include "cudnnctl/install/state_check.hpp"
#include "cudnnctl/install/transaction.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/process.hpp"
#include "toolkit_state.hpp"

namespace cudnnctl {

namespace {

std::uint64_t archive_bytes(const InstallRequest& req) {
  if (req.extract) return req.catalog_size.value_or(0);  // still to be downloaded
  auto n = platform::file_size(req.archive_path);
  return n ? *n : 0;
}

// Test seam, beside the transaction's: CUDNNCTL_FAULT_KILL_AT=staged kills the process (SIGKILL) once the
// archive is in staging, before the plan and the transaction.
void staged_crash_point() {
  if (const char* at = std::getenv("CUDNNCTL_FAULT_KILL_AT"); at && std::string(at) == "staged") platform::kill_self();
}

// Before extracting: the folders the install writes to must not be on a read-only file system (a
// move into one fails only after the whole extraction, and with a less helpful reason). One on another
// file system than the state folder is fine: the moves copy across it (InstallFs::rename).
Result<void> check_destinations(const Toolkit& t) {
  for (const auto& d : t.install_dirs()) {
    const auto path = t.root + "/" + d;
    std::error_code ec;
    if (!std::filesystem::is_directory(path_from_utf8(path), ec)) continue;  // created below the root, on its file system
    CUDNNCTL_TRY_ASSIGN(auto place, platform::folder_place(path));
    if (place.read_only)
      return fail(ErrorCode::io, fmt::format("cannot install into {}: '{}' is on a read-only file system", t.root, path),
                  "remount it read-write, then run cudnnctl again; nothing was changed", path);
  }
  return {};
}

// The archive must exist and be readable before anything is created in the toolkit.
Result<void> check_archive_readable(const std::string& path) {
  CUDNNCTL_TRY(platform::file_size(path));
  CUDNNCTL_TRY(platform::ReadOnlyFile::open(path));
  return {};
}


// cuDNN files now in the folders an install writes to, relative to the root.
std::vector<std::string> existing_cudnn_files(const Toolkit& t, const InstallFs& fs) {
  std::vector<std::string> out;
  for (const auto& d : t.install_dirs())
    for (const auto& f : fs.list(t.root + "/" + d))
      if (is_cudnn_release_file(f, t.os)) out.push_back(d + "/" + f);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Hashes the archive and judges it against the expected hashes (fail-closed).
Result<VerifyOutcome> verify_file(const InstallRequest& req) {
  log::Phase phase("verify (SHA-256)");
  CUDNNCTL_TRY_ASSIGN(auto size, platform::file_size(req.archive_path));
  CUDNNCTL_TRY_ASSIGN(auto hash, sha256_file(req.archive_path));
  return judge_hash(req.archive_path, size, hash, req.expected, req.allow_unverified);
}

// The staged folder of the archive's main library (contract: libcudnn.so.N[.M.P] in lib/ of a Linux archive,
// cudnn64_N.dll in bin/ of a Windows one), or "" when it has none.
std::string staged_library_dir(const std::string& staging, const ArchiveListing& listing, Os os) {
  for (const auto& e : listing.entries) {
    const auto name = base_name(e.name);
    if (e.type != EntryType::file) continue;
    if (const auto f = classify_cudnn_file(name, os); f && f->main())
      return staging + "/" + e.name.substr(0, e.name.size() - name.size());
  }
  return {};
}

std::string header_text(const std::string& staging, const ArchiveName& name, const ArchiveListing& listing, const InstallFs& fs) {
  const std::string top = name.top_folder() + "/include/";
  for (const char* h : {"cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h", "cudnn.h"})
    for (const auto& e : listing.entries)
      if (e.name == top + h) {
        auto text = fs.read_text(staging + "/" + e.name);
        if (text) return *text;
      }
  return {};
}

// A repair: the same archive is installed but some of its files differ from the receipt. Only those are
// re-placed (the damaged copies go to the trash), the receipt stays, so one uninstall still restores the
// toolkit as it was before cudnnctl first touched it.
Result<InstallOutcome> repair_install(const InstallRequest& req, const Toolkit& tk, const Receipt& receipt, const std::vector<std::string>& repair,
                                      InstallPlan plan, const std::string& staging, const std::string& id, InstallFs& fs,
                                      InstallOutcome out) {
  const auto state = state_dir_of(tk);
  const std::string trash = state + "/trash-" + id;
  Journal j;
  j.id = id;
  j.description = fmt::format("repair {} in {}", req.name.canonical, tk.root);
  for (const auto& s : plan.steps) {
    if (s.kind == StepKind::remove_stale || std::find(repair.begin(), repair.end(), s.target) == repair.end()) continue;
    const auto target = tk.root + "/" + s.target;
    if (fs.entry(target) != FsEntry::missing) j.moves.push_back({target, trash + "/" + s.target});
    j.moves.push_back({staging + "/" + s.source, target});
  }
  j.remove_on_commit = {staging, trash};
  j.remove_on_rollback = {staging, trash};
  CUDNNCTL_TRY(run_transaction(fs, state, j));
  out.changed = true;
  out.plan = std::move(plan);
  out.receipt = receipt;
  out.summary = fmt::format("repaired {} in {}: {} file{} re-placed, the rest already matched the receipt", req.name.canonical, tk.root,
                            repair.size(), repair.size() == 1 ? "" : "s");
  return out;
}

SafetyPolicy policy_for(const InstallRequest& req) {
  SafetyPolicy policy;
  policy.archive = req.archive_path;
  policy.expected_top = req.name.top_folder();
  policy.max_total_size = size_cap(req.catalog_size);
  policy.archive_bytes = archive_bytes(req);
  return policy;
}

// The plan for this toolkit, each step knowing whether it replaces a file already there.
Result<InstallPlan> plan_for(const InstallRequest& req, const Toolkit& tk, const ArchiveListing& listing, const InstallFs& fs) {
  auto plan = make_install_plan({listing, req.name, tk, req.support, existing_cudnn_files(tk, fs), req.force});
  if (!plan) return plan;
  for (auto& s : plan->steps)
    if (s.kind != StepKind::remove_stale && fs.entry(tk.root + "/" + s.target) != FsEntry::missing) s.replaces = true;
  return plan;
}

// The same archive is installed already: intact (nothing to do: `out` is the answer), or with some files
// differing from the receipt (returned: those to re-place).
struct SameArchive {
  bool intact = false;
  std::vector<std::string> repair;
};
Result<SameArchive> compare_with_installed(const InstallRequest& req, const Toolkit& tk, const std::optional<Receipt>& previous,
                                           const InstallFs& fs, InstallOutcome& out) {
  if (!previous || previous->canonical_name != req.name.canonical) return SameArchive{};
  if (req.extract) {  // not downloaded yet: the same archive when the receipt's hash is one the catalog expects
    if (std::none_of(req.expected.begin(), req.expected.end(), [&](const ExpectedHash& e) { return e.sha256 == previous->sha256; }))
      return SameArchive{};
  } else {
    CUDNNCTL_TRY_ASSIGN(auto judged, verify_file(req));
    if (judged.sha256 != previous->sha256) return SameArchive{};
  }
  const auto problems = check_receipt(*previous, tk.root, fs);
  log::info("install: {} is already installed (same SHA-256); {} files differ from the receipt", req.name.canonical, problems.size());
  if (problems.empty()) {
    out.changed = false;
    out.receipt = previous;
    out.summary = fmt::format("{} is already installed in {}; all {} files match the receipt", req.name.canonical, tk.root, previous->files.size());
    return SameArchive{true, {}};
  }
  for (const auto& p : problems) out.warnings.push_back("repairing: " + p);
  return SameArchive{false, differing_files(*previous, tk.root, fs)};
}

// Writes nothing: the hash is checked first, the plan comes from the listing.
// `changed` says whether the install would change the toolkit: false when this very archive is installed intact.
Result<InstallOutcome> dry_run_install(const InstallRequest& req, const Toolkit& tk, const InstallFs& fs) {
  log::info("install: dry run of {} into {}", req.name.canonical, tk.root);
  CUDNNCTL_TRY(verify_file(req));
  ReadOptions ro;
  ro.name_encoding = req.name_encoding;
  log::Phase plan_phase("plan (from the listing)");
  CUDNNCTL_TRY_ASSIGN(auto listing, list_archive(req.archive_path, req.name.format, ro));
  CUDNNCTL_TRY(check_listing(listing, policy_for(req)));
  CUDNNCTL_TRY_ASSIGN(auto plan, plan_for(req, tk, listing, fs));
  InstallOutcome out;
  out.dry_run = true;
  out.plan = std::move(plan);
  out.warnings = out.plan.warnings;
  CUDNNCTL_TRY_ASSIGN(const auto previous, read_receipt(state_dir_of(tk), fs, tk.root));
  CUDNNCTL_TRY_ASSIGN(const auto same, compare_with_installed(req, tk, previous, fs, out));
  if (same.intact) {
    out.summary += "; nothing would change";
    return out;
  }
  out.changed = true;  // would change
  out.summary = same.repair.empty()
                    ? fmt::format("would install {} into {} ({} steps); nothing was written", req.name.canonical, tk.root, out.plan.steps.size())
                    : fmt::format("would repair {} in {}: {} file{} to re-place; nothing was written", req.name.canonical, tk.root,
                                  same.repair.size(), same.repair.size() == 1 ? "" : "s");
  return out;
}

// Removes the state folder at the end of a run that created it and left nothing in it.
struct StateCleanup {
  const std::string& state;
  InstallFs& fs;
  bool armed;
  ~StateCleanup() {
    if (armed) drop_empty_state(state, fs);
  }
};

// The receipt goes into staging first and moves in last; an earlier receipt is kept with the backups
// (uninstall restores it).
Result<void> add_receipt_moves(Placement& placed, const Toolkit& tk, const std::string& staging, InstallFs& fs) {
  const auto state = state_dir_of(tk);
  const std::string new_receipt = staging + "/receipt.json";
  if (auto ok = fs.write_atomic(new_receipt, receipt_to_json(placed.receipt)); !ok) return ok;
  const auto backup = tk.root + "/" + placed.backup_relative;
  if (fs.entry(receipt_path(state)) != FsEntry::missing) placed.journal.moves.push_back({receipt_path(state), backup + "/.cudnnctl/receipt.json"});
  placed.journal.moves.push_back({new_receipt, receipt_path(state)});
  return {};
}

// What happened, counted so that it adds up: the files placed are the new ones plus those that replaced a
// file; the originals kept are the replaced ones plus the stale ones removed. No backup is named when
// nothing was kept. The backup folder in this machine's convention (the receipt keeps '/').
std::string install_summary(const std::string& name, const Toolkit& tk, std::size_t placed, std::size_t originals, std::size_t stale,
                            const std::string& backup_relative) {
  const std::size_t replaced = originals - stale;
  auto text = fmt::format("installed {} into {}: {} file{} placed ({} new, {} replaced)", name, tk.root, placed, placed == 1 ? "" : "s",
                          placed - replaced, replaced);
  if (stale) text += fmt::format(", {} stale cuDNN file{} removed", stale, stale == 1 ? "" : "s");
  if (originals == 0) return text;
  const auto kept = tk.os == Os::windows ? windows_toolkit_path_here(backup_relative) : backup_relative;
  return text + fmt::format("; the {} original{} {} kept in {}", originals, originals == 1 ? "" : "s", originals == 1 ? "is" : "are", kept);
}

InstallOutcome installed(const InstallRequest& req, const Toolkit& tk, InstallPlan plan, Placement placed, InstallOutcome out) {
  out.changed = true;
  out.plan = std::move(plan);
  out.warnings.insert(out.warnings.end(), out.plan.warnings.begin(), out.plan.warnings.end());
  out.receipt = std::move(placed.receipt);
  const auto stale = std::count_if(out.plan.steps.begin(), out.plan.steps.end(), [](const PlanStep& s) { return s.kind == StepKind::remove_stale; });
  out.summary = install_summary(req.name.canonical, tk, out.receipt->files.size(), out.receipt->replaced.size(),
                                static_cast<std::size_t>(stale), placed.backup_relative);
  return out;
}

} // namespace

Result<InstallOutcome> install_archive(const InstallRequest& req, InstallFs& fs) {
  const Toolkit tk = resolved_toolkit(req.toolkit);
  if (!req.extract) {
    CUDNNCTL_TRY(check_archive_readable(req.archive_path));
  }
  CUDNNCTL_TRY(check_toolkit_layout(tk, fs));
  // What a package manager owns is refused before anything is written, --force or not (docs/owners.md).
  CUDNNCTL_TRY(check_package_owners(tk, fs, {}, package_root(), "install", true));
  if (req.dry_run) return dry_run_install(req, tk, fs);
  // Refuse an incompatible target before anything is written.
  CUDNNCTL_TRY(check_compatibility(req.name, tk, req.support, req.force));
  const auto state = state_dir_of(tk);
  const bool state_existed = fs.entry(state) != FsEntry::missing;
  CUDNNCTL_TRY_ASSIGN(auto locked, lock_and_recover(tk, fs));
  InstallOutcome out;
  out.recovered = locked.recovered;
  if (!out.recovered.empty()) log::info("install: {}", out.recovered);
  StateCleanup cleanup{state, fs, !state_existed};

  CUDNNCTL_TRY_ASSIGN(auto previous, read_receipt(state, fs, tk.root));
  CUDNNCTL_TRY_ASSIGN(auto same, compare_with_installed(req, tk, previous, fs, out));
  if (same.intact) return out;

  CUDNNCTL_TRY(check_destinations(tk));
  const std::string id = platform::unique_id();
  const std::string staging = state + "/staging-" + id;
  CUDNNCTL_TRY(fs.make_dirs(staging));
  auto drop_staging = [&](Error e) -> Result<InstallOutcome> {
    (void)fs.remove_tree(staging);
    return Unexpected<Error>(std::move(e));
  };
  ExtractOptions eo;
  eo.read.name_encoding = req.name_encoding;
  eo.policy = policy_for(req);
  eo.start_writeback = true;  // the transaction fsyncs every placed file: their bytes go to the disk while the rest inflates
  eo.on_total = req.on_total;
  eo.on_bytes = req.on_bytes;
  auto extracted = req.extract ? req.extract(staging, eo)
                               : verify_and_extract(req.archive_path, req.name.format, req.expected, req.allow_unverified, staging, eo);
  if (!extracted) return drop_staging(extracted.error());
  staged_crash_point();
  const auto& listing = extracted->extract.listing;

  log::Phase plan_phase("plan");
  if (auto ok = check_content(req.name, listing, header_text(staging, req.name, listing, fs)); !ok) return drop_staging(ok.error());
  if (req.check_staged_libraries)
    if (const auto dir = staged_library_dir(staging, listing, req.name.os); !dir.empty())
      if (auto ok = req.check_staged_libraries(dir); !ok) return drop_staging(ok.error());
  auto plan = plan_for(req, tk, listing, fs);
  if (!plan) return drop_staging(plan.error());
  // a repair re-places files of the archive the receipt names; a download judged only by the catalog
  // (InstallRequest::extract) that brought another of its accepted builds installs in full instead
  if (!same.repair.empty() && extracted->verify.sha256 == previous->sha256)
    return repair_install(req, tk, *previous, same.repair, std::move(*plan), staging, id, fs, std::move(out));

  const auto& verified = extracted->verify;
  auto placed = make_placement({*plan, req.name, tk, id, staging, std::string(base_name(req.archive_path)), verified.sha256,
                                verified.matched ? verified.matched->origin : "unverified (--allow-unverified)", platform::utc_now(),
                                extracted->extract.member_crc32});
  if (auto ok = add_receipt_moves(placed, tk, staging, fs); !ok) return drop_staging(ok.error());
  plan_phase.end();
  log::info("install: {} steps, {} moves in the journal; staging {}", plan->steps.size(), placed.journal.moves.size(), staging);
  CUDNNCTL_TRY(run_transaction(fs, state, placed.journal));
  cleanup.armed = false;
  return installed(req, tk, std::move(*plan), std::move(placed), std::move(out));
}


} // namespace cudnnctl
