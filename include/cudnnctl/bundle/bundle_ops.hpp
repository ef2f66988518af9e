#pragma once
// Changing a bundle, each as one journaled transaction (install/transaction): swap its cuDNN for an
// archive's, set it aside so the toolkit's copy loads (unbundle), and put the originals back (restore).
// The originals go to cudnnctl's own state folder for the bundle (bundle_receipt), never deleted.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/archive/verify.hpp"
#include "cudnnctl/bundle/bundle.hpp"
#include "cudnnctl/bundle/bundle_receipt.hpp"
#include "cudnnctl/bundle/load_check_reach.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/install/install_fs.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl {

struct BundleContext {
  std::string state_root;  // bundle_state_root()
  InstallFs* fs = nullptr;
};

/// The lock every bundle command that recovers or changes state holds for its whole run (`list` included: it
/// recovers), one at a time per state root; a second is refused at once, nothing done. Nothing is held (nullopt)
/// when there is no state root.
Result<std::optional<platform::FileLock>> hold_bundle_state(const BundleContext& ctx);

/// With the lock held: finishes or undoes every interrupted bundle transaction under the state root, and
/// removes what a run killed before its journal existed left (a staging or trash folder, a progress file);
/// backups are never removed. What it did, in words.
Result<std::vector<std::string>> recover_bundles(const BundleContext& ctx);

/// A bundle command's refusal (exit 13, `bundle.refused`): nothing was changed.
Unexpected<Error> bundle_refused(std::string message, std::string hint, std::string path = {});

/// A folder as cudnnctl names it: absolute, normalised, no trailing separator.
std::string bundle_normal_dir(const std::string& dir);
/// cudnnctl's receipt for `dir` in its state folder `sd` (nullopt: none), refused when it is not a file or
/// names another folder.
Result<std::optional<BundleReceipt>> bundle_receipt_of(const BundleContext& ctx, const std::string& sd, const std::string& dir);
/// The file names of a receipt's list.
std::vector<std::string> bundle_file_names(const std::vector<BundleFileHash>& files);

/// A bundle with its receipt's part of the state, and the receipt.
struct BundleView {
  Bundle bundle;
  std::optional<BundleReceipt> receipt;
};
Result<BundleView> view_bundle(const BundleContext& ctx, const std::string& dir);

/// The folders cudnnctl holds a receipt for (an unbundled folder has no cuDNN left to find).
std::vector<std::string> bundles_with_receipts(const BundleContext& ctx);

/// What a search of site folders found: each bundle below them (find_bundle_dirs) and each folder
/// cudnnctl holds a receipt for, viewed with its receipt, sorted by folder. Reads only: an interrupted
/// transaction is not recovered here (`bundle list` and every change do that first).
struct BundleScan {
  std::vector<BundleView> views;
  std::vector<std::string> problems;  // a folder that could not be read, in words
};
BundleScan scan_bundles(const BundleContext& ctx, const std::vector<std::string>& sites);

/// The load check after a change (a child process loads the libraries: bundle_probe). `skip`
/// (--no-load-check) goes ahead without it, and the receipt and the outcome say so. Without it, a check
/// this OS cannot run (load_check_reach: Linux and a Windows DLL) refuses the change before anything is
/// done, naming what would run it: the command again (`rerun_args`) on the libraries' OS, or through `interop`.
struct LoadCheckRequest {
  bool skip = false;
  std::vector<std::string> rerun_args;  // the command's arguments after "cudnnctl"
  WindowsInterop interop;
};

/// Progress for a display (commands/progress): `on_total` once, then `on_bytes` adds up to it. Swap counts
/// the archive's extraction (as extract does), restore the kept originals it hashes before moving them back.
struct BundleProgress {
  std::function<void(std::uint64_t)> on_total;
  std::function<void(std::uint64_t)> on_bytes;
};

struct SwapRequest {
  std::string dir;
  std::string archive_path;
  ArchiveName name;
  std::vector<ExpectedHash> expected;
  bool allow_downgrade = false;
  LoadCheckRequest load_check;
  bool allow_unverified = false;  // --allow-unverified: no expected hash is known, and that is accepted
  std::string name_encoding;      // --name-encoding: the member names' encoding (empty: UTF-8)
  BundleProgress progress;
};

struct BundleOutcome {
  BundleView before, after;
  std::vector<std::string> added;    // swap: sub-libraries the bundle did not have
  std::vector<std::string> removed;  // restore: files the swap had added
  unsigned loaded_version = 0;       // what the child process loaded afterwards (0: not checked)
  std::string message;
  bool load_check_skipped = false;   // --no-load-check: no child process loaded it
  std::string load_check_note;       // why, in words
};

Result<BundleOutcome> swap_bundle(const BundleContext& ctx, const SwapRequest& req);
Result<BundleOutcome> unbundle_bundle(const BundleContext& ctx, const std::string& dir, const std::string& toolkit_lib_dir,
                                      unsigned toolkit_cuda_major, const LoadCheckRequest& load_check = {});
Result<BundleOutcome> restore_bundle(const BundleContext& ctx, const std::string& dir, const BundleProgress& progress = {});

} // namespace cudnnctl
