#pragma once
// A crash-safe transaction made of renames. The journal (in the toolkit's state folder) lists every
// move before the first one happens; each move is atomic (one across file systems is a copy renamed
// into place, then the source removed: a crash between those leaves the same content at both ends,
// which recovery undoes by dropping the copy), so after a crash the journal and the tree tell which
// moves ran. Before the commit point (the journal rewritten as "committed") recovery undoes
// them in reverse; after it, recovery only finishes the clean-up. The tree is fully old or fully new.
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
