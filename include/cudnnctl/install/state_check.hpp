#pragma once
// What cudnnctl reads back from a toolkit's state folder (receipt.json, journal.json) is data anyone who
// can write into the toolkit controls. Every path in it must stay inside the toolkit, and everything the
// journal removes must be a folder cudnnctl makes in its state folder; otherwise the state is refused
// before anything is touched. Also: the staging folders a dead run left behind.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/install/receipt.hpp"
#include "cudnnctl/install/transaction.hpp"

namespace cudnnctl {

/// True for a relative '/'-separated path with no empty, "." or ".." component, no backslash, no NUL,
/// not starting with '/' or a drive letter: it can only name something below the folder it is joined to.
bool is_confined_relative(std::string_view rel);

/// True when `path` is `dir` + "/" + a confined relative path.
bool is_below(std::string_view path, std::string_view dir);

/// Refuses a receipt whose files, replaced originals, backups or backup folder lie outside the toolkit
/// (or, for backups, outside .cudnnctl/backup-*). `origin` names the receipt in the message.
Result<void> check_receipt_paths(const Receipt& r, const std::string& origin);

/// Refuses a journal with a move outside `root`, or a removal that is not a staging-, trash- or backup-
/// folder directly inside `state_dir`.
Result<void> check_journal_paths(const Journal& j, const std::string& root, const std::string& state_dir);
/// The same, with moves allowed below any of `roots`.
Result<void> check_journal_paths(const Journal& j, const std::vector<std::string>& roots, const std::string& state_dir);

/// Refuses (ErrorCode::unsafe_state) a path whose folder does not resolve inside `root`: some folder on
/// the way is a link that leaves the toolkit. The last component is not followed (a rename or removal
/// acts on a link itself), unless `follow_last` (a folder the run writes into). Links that stay inside
/// the root (CUDA's lib64 -> targets/x86_64-linux/lib) are fine. `origin` says where the path came from.
Result<void> check_resolves_inside(const std::string& path, const std::string& root, const std::string& origin, bool follow_last = false);
/// check_resolves_inside for the first of `roots` the path is inside; the error names them all when it is in none.
Result<void> check_resolves_inside_any(const std::string& path, const std::vector<std::string>& roots, const std::string& origin);

/// Every path of a journal (both ends of each move, each folder it removes) resolves inside `root`, and
/// no folder it removes is a link.
Result<void> check_journal_resolves(const Journal& j, const std::string& root);
/// The same with several roots (a bundle's folder and its state folder): each path inside one of them.
Result<void> check_journal_resolves(const Journal& j, const std::vector<std::string>& roots);

/// A folder (`<state>/staging-<id>`, `<state>/trash-<id>`) that an interrupted run left behind.
struct LeftoverFolder {
  std::string path;
  std::uint64_t bytes = 0;
};

/// The folders in the state folder `state_dir` whose names start with one of `prefixes` (an install's
/// "staging-"; a bundle's "staging-" and "trash-"), never a link, with their sizes. Read-only. While no cudnnctl
/// run holds that state's lock and no journal is pending they belong to dead runs: the next install, uninstall
/// or bundle command (which takes the lock first, then settles the journal) removes them.
std::vector<LeftoverFolder> leftover_folders(const std::string& state_dir, const std::vector<std::string>& prefixes);

} // namespace cudnnctl
