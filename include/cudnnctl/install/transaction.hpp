#pragma once
// A crash-safe transaction made of renames. The journal (in the toolkit's state folder) lists every
// move before the first one happens; journal.progress (written before the journal) then announces each
// move, flushed to the disk, right before it begins, and checks that its target is free. After a crash
// the progress proves which moves were done: all before the last announced one; that one is decided by
// the tree (its target was free when it began, so whatever is there is the move's own: a
// cross-file-system copy cut before its source was removed is dropped). Nothing else is ever removed,
// so a file the toolkit had before is never lost. Before the commit point (the journal rewritten as
// "committed") recovery undoes the done moves in reverse, each undo announced the same way (a crash
// during a roll-back is finished by the next run); after it, recovery only finishes the clean-up. The
// tree is fully old or fully new. Ctrl-C/SIGTERM during the moves stops the run after the current move
// and rolls it back (ErrorCode::interrupted). Every path is checked to resolve inside the toolkit,
// again right before each move. Contract for callers (install, uninstall, bundle): every `to` must be
// free when the journal is written, and remove_on_rollback may list only folders this run creates.
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/install/install_fs.hpp"

namespace cudnnctl {

struct Move {
  std::string from;
  std::string to;
};

struct Journal {
  std::string id;
  std::string description;                  // "install cudnn-... into /usr/local/cuda"
  std::string phase = "applying";           // "applying" or "committed"
  std::vector<Move> moves;
  std::vector<std::string> remove_on_commit;    // e.g. staging, trash
  std::vector<std::string> remove_on_rollback;  // e.g. staging, the new backup folder
};

std::string journal_path(const std::string& state_dir);
/// The progress records beside the journal: each move, and each undo, is announced there (on the disk)
/// before it begins, so recovery acts only on what they prove was done.
std::string progress_path(const std::string& state_dir);

/// Runs the moves. On any failure the moves done so far are undone and the error says so.
Result<void> run_transaction(InstallFs& fs, const std::string& state_dir, Journal journal);
/// The same, for a transaction whose moves may lie below any of `roots` (a framework bundle's folder and
/// cudnnctl's own state folder for it) instead of below the state folder's parent.
Result<void> run_transaction(InstallFs& fs, const std::string& state_dir, Journal journal, const std::vector<std::string>& roots);

/// The journal a transaction left behind (it did not finish: "applying" before its commit point,
/// "committed" with clean-up left); nullopt when there is none.
Result<std::optional<Journal>> read_journal(const InstallFs& fs, const std::string& state_dir);

/// Finishes or rolls back an interrupted transaction. Returns what it did in words (empty: nothing to do).
Result<std::string> recover(InstallFs& fs, const std::string& state_dir);
/// The same, with the journal's moves allowed below any of `roots` (see run_transaction).
Result<std::string> recover(InstallFs& fs, const std::string& state_dir, const std::vector<std::string>& roots);

} // namespace cudnnctl
