#include "toolkit_state.hpp"

#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/install/installer.hpp"
#include "cudnnctl/install/state_check.hpp"
#include "cudnnctl/install/transaction.hpp"
#include "cudnnctl/platform/permission_hint.hpp"

namespace cudnnctl {

namespace {

// Every path of a receipt resolves inside the toolkit (its text was checked by check_receipt_paths).
Result<void> check_receipt_resolves(const Receipt& r, const std::string& root) {
  std::vector<std::string> paths = {r.backup_dir};
  for (const auto& f : r.files) paths.push_back(f.path);
  for (const auto& b : r.replaced) {
    paths.push_back(b.path);
    paths.push_back(b.backup);
  }
  for (const auto& p : paths)
    if (auto ok = check_resolves_inside(root + "/" + p, root, "a path in the receipt"); !ok) return ok;
  return {};
}

} // namespace

void drop_empty_state(const std::string& state, InstallFs& fs) {
  const auto left = fs.list(state);
  bool only_lock = true;
  for (const auto& f : left)
    if (f != "lock") only_lock = false;
  if (!only_lock) return;
  for (const auto& f : fs.list(state)) (void)fs.remove_file(state + "/" + f);
  std::error_code ec;
  if (std::filesystem::is_empty(path_from_utf8(state), ec)) (void)fs.remove_tree(state);
}

// The folders the toolkit's layout names (the state folder, include, the library and DLL folders, bin on Windows)
// must stay inside the root: a link to a folder inside it (CUDA's lib64 -> targets/x86_64-linux/lib) is
// fine, one that leads out is refused before anything is created, moved or removed. The state folder
// itself must be a real folder: cudnnctl never makes it a link.
Result<void> check_toolkit_layout(const Toolkit& t, const InstallFs& fs) {
  const auto state = state_dir_of(t);
  if (const auto kind = fs.entry(state); kind == FsEntry::symlink || kind == FsEntry::file)
    return fail(ErrorCode::unsafe_state,
                fmt::format("refusing the toolkit {}: its state folder '{}' is {}", t.root, state, kind == FsEntry::symlink ? "a link" : "a file"),
                "cudnnctl makes .cudnnctl as a real folder and never follows it elsewhere; nothing was changed. Remove or "
                "replace it, then run cudnnctl again",
                state);
  for (const auto& d : t.install_dirs())  // Windows: with bin, whose cuDNN DLLs are stale on CUDA 13 trees (removed)
    if (auto ok = check_resolves_inside(t.root + "/" + d, t.root, fmt::format("the toolkit's {} folder", d), true); !ok) return ok;
  return {};
}

// Creates the state folder, takes the lock and finishes or rolls back an interrupted run.
Result<LockedState> lock_and_recover(const Toolkit& t, InstallFs& fs) {
  const auto state = state_dir_of(t);
  if (auto ok = fs.make_dirs(state); !ok) {
    Error e = ok.error();
    e.message = fmt::format("cannot write into the toolkit {}: {}", t.root, e.message);
    if (e.hint.empty()) e.hint = platform::permission_hint() + "; nothing was changed";
    return Unexpected<Error>(e);
  }
  CUDNNCTL_TRY_ASSIGN(auto lock, platform::FileLock::acquire(state + "/lock"));
  log::debug("install: holding the lock {}/lock", state);
  CUDNNCTL_TRY_ASSIGN(auto recovered, recover(fs, state));
  // with the lock held and any interrupted transaction settled, a staging folder belongs to a dead run
  std::size_t count = 0;
  std::uint64_t bytes = 0;
  for (const auto& s : leftover_folders(state, {"staging-"}))
    if (fs.remove_tree(s.path)) {
      ++count;
      bytes += s.bytes;
    }
  if (count > 0)
    recovered += fmt::format("{}removed {} staging folder{} ({:.1f} MB) that an interrupted run left in {}", recovered.empty() ? "" : "; ",
                              count, count == 1 ? "" : "s", static_cast<double>(bytes) / 1e6, state);
  return LockedState{std::move(lock), std::move(recovered)};
}
Toolkit resolved_toolkit(const Toolkit& t) {
  Toolkit r = t;
  std::error_code ec;
  const auto real = std::filesystem::canonical(path_from_utf8(t.root), ec);
  if (!ec) r.root = utf8_of(real);
  return r;
}

Result<std::optional<Receipt>> read_receipt(const std::string& state, const InstallFs& fs, const std::string& root) {
  const auto path = receipt_path(state);
  if (fs.entry(path) == FsEntry::missing) return std::optional<Receipt>();
  CUDNNCTL_TRY_ASSIGN(auto text, fs.read_text(path));
  CUDNNCTL_TRY_ASSIGN(auto r, receipt_from_json(text, path));
  CUDNNCTL_TRY(check_receipt_paths(r, path));
  CUDNNCTL_TRY(check_receipt_resolves(r, root));
  return std::optional<Receipt>(std::move(r));
}

Result<std::string> recover_toolkit_state(const Toolkit& toolkit, InstallFs& fs) {
  CUDNNCTL_TRY_ASSIGN(auto locked, lock_and_recover(toolkit, fs));
  return std::move(locked.recovered);
}

} // namespace cudnnctl
