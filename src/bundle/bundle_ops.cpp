#include "cudnnctl/bundle/bundle_ops.hpp"

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/archive/verified_extract.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/bundle/bundle_plan.hpp"
#include "cudnnctl/bundle/bundle_probe.hpp"
#include "cudnnctl/bundle/bundle_scan.hpp"
#include "cudnnctl/bundle/load_check_reach.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"
#include "cudnnctl/install/state_check.hpp"
#include "cudnnctl/install/transaction.hpp"
#include "cudnnctl/platform/host.hpp"
#include "cudnnctl/platform/process.hpp"

namespace fsys = std::filesystem;

namespace cudnnctl {

namespace {

bool below_or_same(const fsys::path& p, const fsys::path& root) {
  const auto rel = p.lexically_relative(root);
  return !rel.empty() && *rel.begin() != "..";
}

// The folder must not be reached through a link that leaves the tree it belongs to (its owner's site, or
// itself when no owner is known); a cuDNN file in it that is a link out of that tree is refused too.
Result<void> check_tree(const Bundle& b) {
  std::error_code ec;
  const auto tree = path_from_utf8(b.owner ? b.owner->site : b.dir);
  const auto real_tree = fsys::canonical(tree, ec);
  const auto real_dir = fsys::canonical(path_from_utf8(b.dir), ec);
  if (ec || !below_or_same(real_dir, real_tree))
    return bundle_refused(fmt::format("{} is reached through a link that leaves {} (it is really {}); nothing was changed", b.dir, utf8_of(tree),
                               utf8_of(real_dir)),
                   "name the real folder, inside the environment that owns it", b.dir);
  for (const auto& f : b.files) {
    const auto p = path_from_utf8(b.dir) / path_from_utf8(f);
    if (!fsys::is_symlink(fsys::symlink_status(p, ec))) continue;
    const auto target = fsys::canonical(p, ec);
    if (ec || !below_or_same(target, real_tree))
      return bundle_refused(fmt::format("{} is a link to {}, outside {}; cudnnctl never writes through it; nothing was changed", utf8_of(p),
                                 utf8_of(target), utf8_of(tree)),
                     "replace the link with the file, or change the folder it points to instead", utf8_of(p));
  }
  return {};
}

Result<std::string> state_dir_of(const BundleContext& ctx, const std::string& dir) {
  if (ctx.state_root.empty())
    return bundle_refused("there is no folder for cudnnctl's bundle state (no $XDG_STATE_HOME, $HOME or %LOCALAPPDATA%); nothing was changed",
                   "set CUDNNCTL_BUNDLE_STATE to a folder of yours");
  CUDNNCTL_TRY(ctx.fs->make_dirs(ctx.state_root));
  const auto sd = bundle_state_dir(ctx.state_root, dir);
  std::error_code ec;
  const auto p = path_from_utf8(sd);
  if (fsys::is_symlink(fsys::symlink_status(p, ec)) ||
      (fsys::exists(p, ec) && !below_or_same(fsys::canonical(p, ec), fsys::canonical(path_from_utf8(ctx.state_root), ec))))
    return bundle_refused(fmt::format("cudnnctl's state folder {} is a link that leaves {}; nothing was changed", sd, ctx.state_root),
                   "remove the link; cudnnctl makes the folder itself", sd);
  return sd;
}

// What every change starts with: finish an interrupted transaction, read the bundle, check its tree and
// cudnnctl's state folder for it.
struct Prepared {
  std::string dir, sd;
  BundleView view;
  std::vector<std::string> recovered;
};

Result<Prepared> prepare(const BundleContext& ctx, const std::string& dir_in);

Result<void> write_receipt_into(const BundleContext& ctx, const std::string& folder, const BundleReceipt& r, Journal& j,
                                const std::string& sd) {
  if (auto ok = ctx.fs->make_dirs(folder); !ok) return ok;
  if (auto ok = ctx.fs->write_atomic(folder + "/receipt.json", receipt_text(r)); !ok) return ok;
  j.moves.push_back({folder + "/receipt.json", sd + "/receipt.json"});
  return {};
}

Result<void> run_journal(const BundleContext& ctx, const Prepared& p, Journal j) {
  if (auto ok = ctx.fs->write_atomic(p.sd + "/bundle-dir", p.dir); !ok) return ok;
  return run_transaction(*ctx.fs, p.sd, std::move(j), {p.dir, p.sd});
}

// Moves the receipt (and so the swap's memory) into trash, touching nothing in the bundle's folder.
Result<void> forget(const BundleContext& ctx, const Prepared& p, const std::string& id) {
  Journal j{id, fmt::format("forget cudnnctl's {} of {}", p.view.receipt->action, p.dir), "applying", {}, {}, {}};
  const auto trash = p.sd + "/trash-" + id;
  j.moves.push_back({p.sd + "/receipt.json", trash + "/receipt.json"});
  j.remove_on_commit = {trash, p.sd + "/backup-" + p.view.receipt->id};
  j.remove_on_rollback = {trash};
  return run_journal(ctx, p, std::move(j));
}

// The archive's loader-named libraries, extracted into `from`, moved as plain files into `to`.
Result<std::vector<std::string>> gather_libraries(const std::string& from, const std::string& to, Os os) {
  std::error_code ec;
  const auto root = fsys::canonical(path_from_utf8(from), ec);
  std::vector<std::pair<std::string, fsys::path>> found;
  for (auto it = fsys::recursive_directory_iterator(root, ec); !ec && it != fsys::recursive_directory_iterator(); it.increment(ec)) {
    const auto name = utf8_of(it->path().filename());
    const auto f = classify_cudnn_file(name, os);
    if (!f || !f->full_version.empty()) continue;
    std::error_code e2;
    const auto real = fsys::canonical(it->path(), e2);
    if (e2 || !below_or_same(real, root) || !fsys::is_regular_file(real, e2))
      return fail(ErrorCode::archive_hostile, fmt::format("the archive's {} does not lead to a file inside the archive", name), "", name);
    if (std::any_of(found.begin(), found.end(), [&](const auto& x) { return x.first == name; }))
      return fail(ErrorCode::archive_layout, fmt::format("the archive holds {} twice", name), "use NVIDIA's archive as published", name);
    found.emplace_back(name, real);
  }
  if (ec) return fail(ErrorCode::io, fmt::format("cannot read the extracted archive in {}: {}", from, ec.message()), "", from);
  fsys::create_directories(path_from_utf8(to), ec);
  std::vector<std::string> names;
  for (const auto& [name, real] : found) {
    // a file named by two loader names (never in NVIDIA's archives) is copied for the second
    if (fsys::exists(real, ec)) fsys::rename(real, path_from_utf8(to) / path_from_utf8(name), ec);
    if (ec) return fail(ErrorCode::io, fmt::format("cannot stage {}: {}", name, ec.message()), "", to);
    names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace

Result<std::optional<platform::FileLock>> hold_bundle_state(const BundleContext& ctx) {
  if (ctx.state_root.empty()) return std::optional<platform::FileLock>();
  CUDNNCTL_TRY(ctx.fs->make_dirs(ctx.state_root));
  auto lock = platform::FileLock::acquire(ctx.state_root + "/lock");
  if (!lock)
    return fail(lock.error().code, fmt::format("another cudnnctl bundle command is running ({} is held); nothing was done", ctx.state_root + "/lock"),
                "wait for it to finish, then run this again", ctx.state_root);
  return std::optional<platform::FileLock>(std::move(*lock));
}

namespace {
// A state folder with no journal: a run killed before it journaled (or after its clean-up began) left a
// staging or trash folder (the archive's files, or files the committed change dropped) or its progress
// file; with the lock held none belongs to a live run. Backups hold originals and stay.
std::vector<std::string> drop_unjournaled(InstallFs& fs, const std::string& sd) {
  std::vector<std::string> dropped;
  if (fs.entry(progress_path(sd)) == FsEntry::file && fs.remove_file(progress_path(sd))) dropped.push_back(progress_path(sd));
  for (const auto& left : leftover_folders(sd, {"staging-", "trash-"}))
    if (fs.remove_tree(left.path)) dropped.push_back(left.path);
  return dropped;
}
} // namespace

Result<std::vector<std::string>> recover_bundles(const BundleContext& ctx) {
  std::vector<std::string> done;
  if (ctx.state_root.empty()) return done;
  std::error_code ec;
  for (const auto& e : fsys::directory_iterator(path_from_utf8(ctx.state_root), ec)) {
    const auto sd = utf8_of(e.path());
    if (e.is_symlink(ec) || !e.is_directory(ec)) continue;
    if (ctx.fs->entry(journal_path(sd)) == FsEntry::missing) {
      if (const auto dropped = drop_unjournaled(*ctx.fs, sd); !dropped.empty())
        done.push_back(fmt::format("removed what an interrupted bundle command left before it changed anything: {}", fmt::join(dropped, ", ")));
      continue;
    }
    auto dir = ctx.fs->read_text(sd + "/bundle-dir");
    if (!dir || bundle_state_dir(ctx.state_root, *dir) != sd)
      return bundle_refused(fmt::format("the interrupted bundle transaction in {} names no folder cudnnctl made it for; nothing was changed", sd),
                     "inspect the folder; remove it only if you know no bundle needs its backup", sd);
    CUDNNCTL_TRY_ASSIGN(auto r, recover(*ctx.fs, sd, {*dir, sd}));
    if (!r.empty()) done.push_back(fmt::format("{} ({})", r, *dir));
  }
  return done;
}

namespace {

Result<Prepared> prepare(const BundleContext& ctx, const std::string& dir_in) {
  Prepared p;
  p.dir = bundle_normal_dir(dir_in);
  CUDNNCTL_TRY_ASSIGN(auto rec, recover_bundles(ctx));
  p.recovered = std::move(rec);
  CUDNNCTL_TRY_ASSIGN(auto sd, state_dir_of(ctx, p.dir));
  p.sd = std::move(sd);
  CUDNNCTL_TRY_ASSIGN(auto v, view_bundle(ctx, p.dir));
  p.view = std::move(v);
  CUDNNCTL_TRY(check_tree(p.view.bundle));
  return p;
}

Result<ArchiveLibraries> stage_archive(const SwapRequest& req, const Bundle& b, const std::string& staging) {
  ExtractOptions eo;
  eo.read.name_encoding = req.name_encoding;
  eo.on_total = req.progress.on_total;
  eo.on_bytes = req.progress.on_bytes;
  CUDNNCTL_TRY(verify_and_extract(req.archive_path, req.name.format, req.expected, req.allow_unverified, staging + "/x", eo));
  CUDNNCTL_TRY_ASSIGN(auto names, gather_libraries(staging + "/x", staging + "/place", b.os));
  ArchiveLibraries a;
  a.os = req.name.os;
  a.files = std::move(names);
  a.version = req.name.version.to_string();
  a.cuda_major = parse_uint_or(req.name.cuda_major(), 0);
  const auto main_lib = main_library(a.files, b.os);
  if (!main_lib.empty()) a.arch = library_arch(staging + "/place/" + main_lib, b.os);
  return a;
}

// A receipt from an earlier change: restore first, unless the package manager already undid it.
Result<void> settle_old_receipt(const BundleContext& ctx, Prepared& p, const std::string& id) {
  if (!p.view.receipt) return {};
  if (p.view.bundle.state != BundleState::reverted)
    return bundle_refused(fmt::format("{} is {} by cudnnctl already; nothing was changed", p.dir, to_string(p.view.bundle.state)),
                   fmt::format("run 'cudnnctl bundle restore {}' first", p.dir), p.dir);
  if (auto ok = forget(ctx, p, id + "-f"); !ok) return ok;
  p.view.receipt.reset();
  return {};
}

// Before anything is done: a load check of `what` (libraries built for `os`) that this OS cannot run refuses the
// change, unless it is skipped (--no-load-check). Its failure would say nothing about the libraries.
Result<void> check_load_check_runs(const std::string& dir, const std::string& what, Os os, const LoadCheckRequest& c) {
  if (c.skip) return {};
  const auto why = load_check_impossible(os, platform::detect_host().os);
  if (!why) return {};
  return bundle_refused(
      fmt::format("the load check of {} cannot run on this OS: {}, so no process here can prove it loads; nothing was changed", what, *why),
      fmt::format("{}; or pass --no-load-check to go ahead without it (the receipt records that it was skipped)",
                  load_check_runner(os, c.rerun_args, c.interop)),
      dir);
}

// Why the check was skipped, for the receipt and the output.
std::string skipped_note(Os os) {
  const auto why = load_check_impossible(os, platform::detect_host().os);
  return why ? fmt::format("skipped (--no-load-check): {}", *why) : std::string("skipped at your request (--no-load-check)");
}

std::vector<BundleFileHash> hashes_of(const std::vector<std::string>& names, const std::map<std::string, std::string>& sha) {
  std::vector<BundleFileHash> out;
  for (const auto& n : names) out.push_back({n, sha.count(n) ? sha.at(n) : std::string()});
  return out;
}

// A swap with the load check skipped: done once the transaction committed.
Result<BundleOutcome> swapped_unchecked(const BundleContext& ctx, const Prepared& p, const ArchiveLibraries& a, const SwapPlan& plan,
                                        BundleOutcome out) {
  CUDNNCTL_TRY_ASSIGN(out.after, view_bundle(ctx, p.dir));
  out.message = fmt::format("swapped {} for cuDNN {} ({} files set aside, {} placed, {} added); the load check was {}", p.dir, a.version,
                            plan.set_aside.size(), plan.place.size(), plan.added.size(), out.load_check_note);
  return out;
}

} // namespace

Result<BundleOutcome> swap_bundle(const BundleContext& ctx, const SwapRequest& req) {
  CUDNNCTL_TRY_ASSIGN(auto p, prepare(ctx, req.dir));
  const auto id = platform::unique_id();
  CUDNNCTL_TRY(settle_old_receipt(ctx, p, id));
  const auto& b = p.view.bundle;
  if (b.files.empty()) return bundle_refused(fmt::format("{} holds no cuDNN library; nothing was changed", p.dir), "see 'cudnnctl bundle list'", p.dir);
  const auto staging = p.sd + "/staging-" + id, backup = p.sd + "/backup-" + id;
  CUDNNCTL_TRY(ctx.fs->make_dirs(staging + "/x"));
  auto drop = [&](Error e) -> Result<BundleOutcome> {
    (void)ctx.fs->remove_tree(staging);
    return Unexpected<Error>(std::move(e));
  };
  auto a = stage_archive(req, b, staging);
  if (!a) return drop(a.error());
  auto plan = plan_swap(b, *a, req.allow_downgrade);
  if (!plan) return drop(plan.error());
  // what the files prove (major, CUDA major, architecture, version) is refused above, before a load check that
  // cannot run on this OS: that refusal's way out (--no-load-check) would only lead to the real reason
  if (auto runs = check_load_check_runs(p.dir, fmt::format("the swapped cuDNN in {}", p.dir), b.os, req.load_check); !runs)
    return drop(runs.error());
  BundleReceipt r{p.dir, "swap", id, platform::utc_now(), req.archive_path, "", a->version, b.version, hashes_of(plan->set_aside, b.sha256), {},
                  req.load_check.skip, req.load_check.skip ? skipped_note(b.os) : std::string()};
  for (const auto& f : plan->place) {
    auto h = ctx.fs->sha256(staging + "/place/" + f);
    if (!h) return drop(h.error());
    r.placed.push_back({f, *h});
  }
  Journal j{id, fmt::format("bundle swap of {} with {}", p.dir, req.archive_path), "applying", {}, {staging}, {staging, backup}};
  for (const auto& f : plan->set_aside) j.moves.push_back({p.dir + "/" + f, backup + "/" + f});
  for (const auto& f : plan->place) j.moves.push_back({staging + "/place/" + f, p.dir + "/" + f});
  if (auto ok = write_receipt_into(ctx, staging, r, j, p.sd); !ok) return drop(ok.error());
  if (auto ok = run_journal(ctx, p, std::move(j)); !ok) return drop(ok.error());
  BundleOutcome out{p.view, {}, plan->added, {}, 0, {}, r.load_check_skipped, r.load_check_note};
  if (req.load_check.skip) return swapped_unchecked(ctx, p, *a, *plan, std::move(out));
  const unsigned want = cudnn_version_number(a->version);
  auto loaded = probe_bundle_load(p.dir);
  if (!loaded || *loaded != want) {
    const auto why = loaded ? fmt::format("it reports version {}, not {}", *loaded, want) : loaded.error().message;
    auto back = restore_bundle(ctx, p.dir);
    return bundle_refused(fmt::format("the swapped cuDNN in {} did not load the way the framework loads it ({}); {}", p.dir, why,
                               back ? "the swap was rolled back, the originals are in place" : "rolling back failed too: " + back.error().message),
                   "the archive's libraries need something the bundle's folder lacks; keep the framework's own copy", p.dir);
  }
  out.loaded_version = *loaded;
  CUDNNCTL_TRY_ASSIGN(auto after, view_bundle(ctx, p.dir));
  out.after = std::move(after);
  out.message = fmt::format("swapped {} for cuDNN {} ({} files set aside, {} placed, {} added); a child process loaded it: {}", p.dir, a->version,
                            plan->set_aside.size(), plan->place.size(), plan->added.size(), *loaded);
  return out;
}

namespace {
// The kept originals match their receipt's hashes, each counted to `progress` once hashed.
Result<void> check_originals(const BundleContext& ctx, const std::string& backup, const BundleReceipt& r, const BundleProgress& progress) {
  std::vector<std::uint64_t> sizes;  // each file's size, read once: the total first, then each one as it is hashed
  for (const auto& f : r.originals) sizes.push_back(ctx.fs->size(backup + "/" + f.name).value_or(0));
  if (progress.on_total) progress.on_total(std::accumulate(sizes.begin(), sizes.end(), std::uint64_t{0}));
  for (std::size_t i = 0; i < r.originals.size(); ++i) {
    const auto& f = r.originals[i];
    if (auto h = ctx.fs->sha256(backup + "/" + f.name); !h || *h != f.sha256)
      return bundle_refused(fmt::format("the kept original {} is missing or changed; nothing was changed", backup + "/" + f.name),
                            "reinstall the package with pip to get its files back", backup);
    if (progress.on_bytes) progress.on_bytes(sizes[i]);
  }
  return {};
}
} // namespace

Result<BundleOutcome> restore_bundle(const BundleContext& ctx, const std::string& dir_in, const BundleProgress& progress) {
  CUDNNCTL_TRY_ASSIGN(auto p, prepare(ctx, dir_in));
  if (!p.view.receipt)
    return bundle_refused(fmt::format("cudnnctl has not changed {}; nothing was changed", p.dir), "'cudnnctl bundle list' shows each folder's state", p.dir);
  const auto& r = *p.view.receipt;
  const auto id = platform::unique_id();
  BundleOutcome out{p.view, {}, {}, {}, 0, {}, false, {}};
  if (p.view.bundle.state == BundleState::reverted) {
    CUDNNCTL_TRY(forget(ctx, p, id));
    out.message = fmt::format("the package manager had already put {}'s files back; cudnnctl forgot its {} and touched nothing", p.dir, r.action);
    for (const auto& f : r.placed)
      if (std::none_of(r.originals.begin(), r.originals.end(), [&](const BundleFileHash& o) { return o.name == f.name; }) &&
          ctx.fs->entry(p.dir + "/" + f.name) != FsEntry::missing)
        out.message += fmt::format("; {} (added by the swap, not in the package) is still there: delete it if you like", f.name);
  } else {
    if (p.view.bundle.state == BundleState::modified)
      return bundle_refused(fmt::format("{}: {}; restoring would lose those changes; nothing was changed", p.dir, p.view.bundle.state_note),
                     "put the swapped files back, or reinstall the package with pip (then restore forgets the swap)", p.dir);
    const auto backup = p.sd + "/backup-" + r.id, trash = p.sd + "/trash-" + id;
    CUDNNCTL_TRY(check_originals(ctx, backup, r, progress));
    Journal j{id, fmt::format("bundle restore of {}", p.dir), "applying", {}, {trash, backup}, {trash}};
    for (const auto& f : r.placed)
      if (ctx.fs->entry(p.dir + "/" + f.name) != FsEntry::missing) j.moves.push_back({p.dir + "/" + f.name, trash + "/" + f.name});
    for (const auto& f : r.originals) j.moves.push_back({backup + "/" + f.name, p.dir + "/" + f.name});
    j.moves.push_back({p.sd + "/receipt.json", trash + "/receipt.json"});
    CUDNNCTL_TRY(run_journal(ctx, p, std::move(j)));
    const auto originals = bundle_file_names(r.originals);
    for (const auto& f : r.placed)
      if (std::find(originals.begin(), originals.end(), f.name) == originals.end()) out.removed.push_back(f.name);
    out.message = fmt::format("restored {}'s {} original files", p.dir, r.originals.size());
  }
  CUDNNCTL_TRY_ASSIGN(auto after, view_bundle(ctx, p.dir));
  out.after = std::move(after);
  return out;
}

Result<BundleOutcome> unbundle_bundle(const BundleContext& ctx, const std::string& dir_in, const std::string& tk_lib, unsigned tk_cuda_major,
                                      const LoadCheckRequest& check) {
  CUDNNCTL_TRY_ASSIGN(auto p, prepare(ctx, dir_in));
  const auto id = platform::unique_id();
  CUDNNCTL_TRY(settle_old_receipt(ctx, p, id));
  const auto& b = p.view.bundle;
  auto no = [&](const std::string& why) {
    return bundle_refused(fmt::format("bundle unbundle of {} refused: {}; nothing was changed", p.dir, why),
                   "install a matching cuDNN into the toolkit first ('cudnnctl install'), or name it with --cuda-path", p.dir);
  };
  if (b.files.empty()) return no("the folder holds no cuDNN library");
  const auto tk_files = cudnn_files_among(names_in(tk_lib), b.os);
  const unsigned tk_major = bundle_cudnn_major(tk_files, b.os);
  if (tk_major == 0) return no(fmt::format("the toolkit's {} holds no cuDNN", tk_lib));
  if (tk_major != b.cudnn_major) return no(fmt::format("the toolkit's cuDNN is major {} and the bundle's {}", tk_major, b.cudnn_major));
  for (const auto& f : cudnn_sub_library_files(b.files, b.cudnn_major, b.os))
    if (std::find(tk_files.begin(), tk_files.end(), f) == tk_files.end()) return no(fmt::format("the toolkit's cuDNN lacks {}", f));
  if (b.cuda_major == 0) return no("the CUDA major the framework was built for is unknown (no -cuNN wheel name, no cudart beside it)");
  if (b.cuda_major != tk_cuda_major) return no(fmt::format("the toolkit is CUDA {} and the framework is built for CUDA {}", tk_cuda_major, b.cuda_major));
  unsigned loaded = 0;
  if (!check.skip) {
    CUDNNCTL_TRY(check_load_check_runs(p.dir, fmt::format("the toolkit's cuDNN in {}", tk_lib), b.os, check));
    auto probed = probe_bundle_load(tk_lib);
    if (!probed) return no(probed.error().message);
    loaded = *probed;
  }
  const auto backup = p.sd + "/backup-" + id;
  BundleReceipt r{p.dir, "unbundle", id, platform::utc_now(), "", "", "", b.version, hashes_of(b.files, b.sha256), {},
                  check.skip, check.skip ? skipped_note(b.os) : std::string()};
  Journal j{id, fmt::format("bundle unbundle of {}", p.dir), "applying", {}, {}, {backup}};
  for (const auto& f : b.files) j.moves.push_back({p.dir + "/" + f, backup + "/" + f});
  const auto staging = p.sd + "/staging-" + id;
  j.remove_on_commit = {staging};
  j.remove_on_rollback.push_back(staging);
  CUDNNCTL_TRY(write_receipt_into(ctx, staging, r, j, p.sd));
  CUDNNCTL_TRY(run_journal(ctx, p, std::move(j)));
  BundleOutcome out{p.view, {}, {}, {}, loaded, {}, r.load_check_skipped, r.load_check_note};
  CUDNNCTL_TRY_ASSIGN(auto after, view_bundle(ctx, p.dir));
  out.after = std::move(after);
  out.message = check.skip ? fmt::format("set {} cuDNN files of {} aside for the toolkit's copy in {}; the load check was {}", b.files.size(),
                                         p.dir, tk_lib, r.load_check_note)
                           : fmt::format("set {} cuDNN files of {} aside; the toolkit's copy in {} loads (version {})", b.files.size(), p.dir,
                                         tk_lib, loaded);
  return out;
}

} // namespace cudnnctl
