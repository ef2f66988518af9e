#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/install/installer.hpp"
#include "cudnnctl/install/owned_files.hpp"
#include "cudnnctl/owner/owner_lookup.hpp"
#include "cudnnctl/install/transaction.hpp"
#include "cudnnctl/platform/process.hpp"
#include "toolkit_state.hpp"

namespace cudnnctl {

// Undoes what the receipt records: the files cudnnctl placed go to the trash (one edited since is kept beside
// its place), the originals come back from the backup, and an earlier receipt kept there becomes the receipt.
Result<UninstallOutcome> uninstall_cudnn(const Toolkit& given, InstallFs& fs) {
  UninstallOutcome out;
  const Toolkit tk = resolved_toolkit(given);
  CUDNNCTL_TRY(check_toolkit_layout(tk, fs));
  const auto state = state_dir_of(tk);
  if (fs.entry(state) == FsEntry::missing)
    return fail(ErrorCode::file_not_found, fmt::format("cudnnctl has installed nothing into {} (no receipt)", tk.root),
                "uninstall removes only what 'cudnnctl install' put there; pick the toolkit with --cuda-path", tk.root);
  CUDNNCTL_TRY_ASSIGN(auto locked, lock_and_recover(tk, fs));
  out.recovered = locked.recovered;
  CUDNNCTL_TRY_ASSIGN(auto read, read_receipt(state, fs, tk.root));
  const auto& receipt = read;
  if (!receipt) {
    drop_empty_state(state, fs);  // the lock goes too when nothing else is left
    if (!out.recovered.empty()) {  // the interrupted run was the only change: rolling it back was the uninstall
      out.changed = true;
      out.summary = fmt::format("the interrupted run rolled back above was all: cudnnctl has nothing else installed in {}", tk.root);
      return out;
    }
    return fail(ErrorCode::file_not_found, fmt::format("cudnnctl has installed nothing into {} (no receipt)", tk.root),
                "uninstall removes only what 'cudnnctl install' put there; pick the toolkit with --cuda-path", tk.root);
  }
  std::vector<std::string> touched;  // what the journal below moves: the receipt's files and the originals' places
  for (const auto& f : receipt->files) touched.push_back(f.path);
  for (const auto& b : receipt->replaced) touched.push_back(b.path);
  CUDNNCTL_TRY(check_package_owners(tk, fs, touched, package_root(), "uninstall", false));
  const std::string id = platform::unique_id();
  const std::string trash = state + "/trash-" + id;
  Journal j;
  j.id = id;
  j.description = fmt::format("uninstall {} from {}", receipt->canonical_name, tk.root);
  // an installed file edited since (its size or hash differs from the receipt) is kept beside its place
  const auto edited = differing_files(*receipt, tk.root, fs);
  for (const auto& f : receipt->files) {
    const auto p = tk.root + "/" + f.path;
    if (fs.entry(p) == FsEntry::missing) continue;
    if (f.kind != "symlink" && std::find(edited.begin(), edited.end(), f.path) != edited.end()) {
      std::string aside = f.path + ".cudnnctl-edited";
      if (fs.entry(tk.root + "/" + aside) != FsEntry::missing) aside += "-" + id;
      j.moves.push_back({p, tk.root + "/" + aside});
      out.kept.push_back(aside);
      continue;
    }
    j.moves.push_back({p, trash + "/" + f.path});
    ++out.removed;
  }
  j.moves.push_back({receipt_path(state), trash + "/.cudnnctl/receipt.json"});
  const std::string backup = tk.root + "/" + receipt->backup_dir;
  for (const auto& b : receipt->replaced) {
    const auto from = tk.root + "/" + b.backup;
    if (fs.entry(from) == FsEntry::missing) continue;
    j.moves.push_back({from, tk.root + "/" + b.path});
    ++out.restored;
  }
  if (fs.entry(backup + "/.cudnnctl/receipt.json") != FsEntry::missing)
    j.moves.push_back({backup + "/.cudnnctl/receipt.json", receipt_path(state)});
  j.remove_on_commit = {trash, backup};
  j.remove_on_rollback = {trash};
  CUDNNCTL_TRY(run_transaction(fs, state, j));
  // the toolkit is back as it was: when no earlier receipt came back, the state folder goes too
  if (fs.entry(receipt_path(state)) == FsEntry::missing) drop_empty_state(state, fs);
  out.changed = true;
  out.summary = fmt::format("uninstalled {} from {}: {} files removed, {} originals restored", receipt->canonical_name, tk.root,
                            out.removed, out.restored);
  if (!out.kept.empty())
    out.summary += fmt::format("; {} file{} you edited after the install kept as {}", out.kept.size(), out.kept.size() == 1 ? "" : "s",
                               fmt::format("{}", fmt::join(out.kept, ", ")));
  return out;
}

} // namespace cudnnctl
