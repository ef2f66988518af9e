#include "cudnnctl/install/transaction.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <optional>
#include <set>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/install/state_check.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace {

// The folders a transaction's moves may touch: the toolkit (the state folder's parent) for an install, a
// framework bundle's folder and cudnnctl's own state folder for it for a bundle swap.
using Roots = std::vector<std::string>;

constexpr int k_schema = 2;  // 2: moves are proven by journal.progress; 1 (older cudnnctl): no progress file

std::string to_json(const Journal& j) {
  nlohmann::json moves = nlohmann::json::array();
  for (const auto& m : j.moves) moves.push_back({{"from", m.from}, {"to", m.to}});
  return nlohmann::json{{"schema_version", k_schema},
                        {"id", j.id},
                        {"description", j.description},
                        {"phase", j.phase},
                        {"moves", moves},
                        {"remove_on_commit", j.remove_on_commit},
                        {"remove_on_rollback", j.remove_on_rollback}}
             .dump(1);
}

struct ReadJournal {
  Journal journal;
  int schema = 1;
};

Result<ReadJournal> from_json(const std::string& text, const std::string& path) {
  try {
    const auto doc = nlohmann::json::parse(text);
    ReadJournal r;
    Journal& j = r.journal;
    r.schema = doc.value("schema_version", 1);
    j.id = doc.at("id").get<std::string>();
    j.description = doc.value("description", "");
    j.phase = doc.at("phase").get<std::string>();
    for (const auto& m : doc.at("moves")) j.moves.push_back({m.at("from").get<std::string>(), m.at("to").get<std::string>()});
    j.remove_on_commit = doc.value("remove_on_commit", std::vector<std::string>{});
    j.remove_on_rollback = doc.value("remove_on_rollback", std::vector<std::string>{});
    return r;
  } catch (const std::exception& e) {
    return fail(ErrorCode::io, fmt::format("the install journal '{}' is unreadable: {}", path, e.what()),
                "a previous cudnnctl run was interrupted while writing it; inspect the toolkit's .cudnnctl folder", path);
  }
}

// Test seam: CUDNNCTL_FAULT_KILL_AFTER_MOVES=N kills the process (SIGKILL) after N moves;
// CUDNNCTL_FAULT_KILL_AT=journaled|committed kills it right after that journal write.
void crash_point(int moves_done, const char* phase) {
  if (const char* n = std::getenv("CUDNNCTL_FAULT_KILL_AFTER_MOVES"); n && moves_done >= 0 && std::atoi(n) == moves_done)
    platform::kill_self();
  if (const char* at = std::getenv("CUDNNCTL_FAULT_KILL_AT"); at && phase && std::string(at) == phase) platform::kill_self();
}

// What journal.progress proves. Its lines: "journal <id>" (written before the journal), "do <i>" before
// move i starts, "undo <i>" before move i is undone, "rolled-back" once every done move is undone. Each
// line is on the disk before the step it announces; a last line without its newline was never complete.
struct Progress {
  bool known = false;      // the file exists and belongs to this journal
  int started = -1;        // the last move begun: moves before it are done, this one may be
  int undo_started = -1;   // the last move whose undo began (undos run from `started` down); -1: none
  bool rolled_back = false;
};

Progress read_progress(const InstallFs& fs, const std::string& state_dir, const std::string& id) {
  Progress p;
  const auto text = fs.read_text(progress_path(state_dir));
  if (!text) return p;
  std::size_t pos = 0;
  bool first = true;
  while (pos < text->size()) {
    const auto end = text->find('\n', pos);
    if (end == std::string::npos) break;  // torn: never complete, so its step never began
    const std::string line = text->substr(pos, end - pos);
    pos = end + 1;
    if (first) {
      if (line != "journal " + id) return p;
      first = false;
      p.known = true;
      continue;
    }
    if (line == "rolled-back") p.rolled_back = true;
    else if (line.starts_with("do ")) p.started = std::atoi(line.c_str() + 3);
    else if (line.starts_with("undo ")) p.undo_started = std::atoi(line.c_str() + 5);
  }
  return p;
}

Unexpected<Error> unsafe(const std::string& what, const std::string& path) {
  return fail(ErrorCode::unsafe_state, what,
              "the toolkit was changed outside cudnnctl while a run was interrupted; the journal and journal.progress in "
              "the toolkit's .cudnnctl folder say what each move was: put the file back by hand, then remove both",
              path);
}

// Removes what a cross-file-system move (InstallFs::rename) left beside `end` when it was cut.
void drop_part(InstallFs& fs, const std::string& end) {
  const auto part = end + std::string(cross_fs_part_suffix);
  if (fs.entry(part) == FsEntry::file || fs.entry(part) == FsEntry::symlink) (void)fs.remove_file(part);
}

// Undoes move `m` (known done): `to` goes back to `from`, announced in the progress file first.
Result<void> undo_move(InstallFs& fs, const std::string& progress, const Roots& roots, int i, const Move& m) {
  if (fs.entry(m.to) == FsEntry::missing)
    return unsafe(fmt::format("cannot roll back: the journal proves '{}' was moved to '{}', but it is not there", m.from, m.to), m.to);
  if (fs.entry(m.from) != FsEntry::missing)
    return unsafe(fmt::format("cannot roll back the move of '{}' to '{}': something new is at '{}'", m.from, m.to, m.from), m.from);
  for (const auto* p : {&m.from, &m.to})
    if (auto ok = check_resolves_inside_any(*p, roots, "a move in the install journal"); !ok) return ok;
  if (auto ok = fs.append_line(progress, fmt::format("undo {}", i)); !ok) return ok;
  if (auto ok = fs.make_dirs(parent_of(m.from)); !ok) return ok;
  return fs.rename(m.to, m.from);
}

// The undo of move `i` began and was cut: finish it. `from` was free when it began (undo_move checks),
// so a copy at both ends (a cross-file-system rename cut) leaves ours at `from`.
Result<void> settle_cut_undo(InstallFs& fs, const std::string& progress, const Roots& roots, int i, const Move& m) {
  drop_part(fs, m.from);
  const bool at_from = fs.entry(m.from) != FsEntry::missing, at_to = fs.entry(m.to) != FsEntry::missing;
  if (at_from && !at_to) return {};  // it had finished
  if (at_from && at_to)
    if (auto ok = fs.remove_file(m.from); !ok) return ok;
  return undo_move(fs, progress, roots, i, m);
}

// The move `i` began and was cut (a crash): was it done? `to` was free when it began (run_transaction
// checks), so whatever is at `to` is the move's own: both ends means a cross-file-system copy in place
// whose source was not removed yet, and dropping the copy undoes it.
Result<bool> settle_cut_move(InstallFs& fs, const Move& m) {
  drop_part(fs, m.to);
  const bool at_from = fs.entry(m.from) != FsEntry::missing, at_to = fs.entry(m.to) != FsEntry::missing;
  if (!at_to) return false;
  if (!at_from) return true;
  CUDNNCTL_TRY(fs.remove_file(m.to));
  return false;
}

// Removes a folder a rolled-back run made. Staging holds only the archive's files; a backup or trash
// folder must be empty by now (only folders left): anything else in it is a toolkit file, kept.
void drop_made_folder(InstallFs& fs, const std::string& dir) {
  if (fs.entry(dir) != FsEntry::directory) return;
  const auto name = utf8_of(path_from_utf8(dir).filename());
  std::error_code ec;
  if (!name.starts_with("staging-"))
    for (auto it = std::filesystem::recursive_directory_iterator(path_from_utf8(dir), ec); !ec && it != std::filesystem::recursive_directory_iterator();
         it.increment(ec))
      if (!it->is_directory(ec) || it->is_symlink(ec)) {
        log::info("kept {}: it still holds {}", dir, utf8_of(it->path()));
        return;
      }
  (void)fs.remove_tree(dir);
}

// Undoes the moves the progress proves were done (and settles the one a crash cut), newest first.
// `cut`: the last begun move may be cut (after a crash); false when the run itself saw it fail.
Result<void> rollback(InstallFs& fs, const std::string& state_dir, const Roots& roots, const Journal& j, const Progress& p, bool cut) {
  const auto progress = progress_path(state_dir);
  if (!p.rolled_back) {
    int next = p.started;
    if (p.undo_started >= 0) {
      if (auto ok = settle_cut_undo(fs, progress, roots, p.undo_started, j.moves[static_cast<std::size_t>(p.undo_started)]); !ok) return ok;
      next = p.undo_started - 1;
    } else if (next >= 0 && cut) {
      CUDNNCTL_TRY_ASSIGN(auto done, settle_cut_move(fs, j.moves[static_cast<std::size_t>(next)]));
      if (!done) --next;
    }
    for (int i = next; i >= 0; --i)
      if (auto ok = undo_move(fs, progress, roots, i, j.moves[static_cast<std::size_t>(i)]); !ok) return ok;
    if (auto ok = fs.append_line(progress, "rolled-back"); !ok) return ok;
  }
  for (const auto& d : j.remove_on_rollback) drop_made_folder(fs, d);
  if (auto ok = fs.remove_file(journal_path(state_dir)); !ok) return ok;
  (void)fs.remove_file(progress);
  return {};
}

// A journal of an older cudnnctl (no progress file): only what the tree proves is undone (a move whose
// source is gone and whose target is there); a move with both ends present is left as it is.
Result<int> rollback_unproven(InstallFs& fs, const std::string& state_dir, const Journal& j) {
  int undecided = 0;
  for (auto it = j.moves.rbegin(); it != j.moves.rend(); ++it) {
    const bool at_from = fs.entry(it->from) != FsEntry::missing, at_to = fs.entry(it->to) != FsEntry::missing;
    if (at_from && at_to) ++undecided;
    if (at_from || !at_to) continue;
    CUDNNCTL_TRY(fs.make_dirs(parent_of(it->from)));
    CUDNNCTL_TRY(fs.rename(it->to, it->from));
  }
  if (undecided == 0)
    for (const auto& d : j.remove_on_rollback) drop_made_folder(fs, d);
  (void)fs.remove_file(journal_path(state_dir));
  return undecided;
}

void cleanup_after_commit(InstallFs& fs, const std::string& state_dir, const Journal& j) {
  for (const auto& d : j.remove_on_commit) (void)fs.remove_tree(d);
  (void)fs.remove_file(journal_path(state_dir));
  (void)fs.remove_file(progress_path(state_dir));
}

Unexpected<Error> undo_after(InstallFs& fs, const std::string& state_dir, const Roots& roots, const Journal& j, int last_done, const Error& cause) {
  Progress p;
  p.known = true;
  p.started = last_done;
  auto rolled = rollback(fs, state_dir, roots, j, p, false);
  Error e = cause;
  if (rolled) {
    e.message += "; every change was rolled back, the toolkit is as it was";
  } else {
    e.message += fmt::format("; rolling back also failed ({}): the journal {} stays, and the next cudnnctl run on this "
                             "toolkit finishes the roll-back",
                             rolled.error().message, journal_path(state_dir));
  }
  return Unexpected<Error>(e);
}

Error interrupted_error(const Journal& j, int sig) {
  return Error{ErrorCode::interrupted, fmt::format("'{}' was interrupted (signal {})", j.description, sig),
               "run the command again to finish what it was doing", {}};
}

// Runs the moves, each announced in the progress file (on the disk) before it begins.
Result<void> apply_moves(InstallFs& fs, const std::string& state_dir, const Roots& roots, const Journal& j) {
  const auto progress = progress_path(state_dir);
  int done = 0;
  for (const auto& m : j.moves) {
    if (const int sig = platform::InterruptGuard::caught()) return undo_after(fs, state_dir, roots, j, done - 1, interrupted_error(j, sig));
    if (auto ok = fs.make_dirs(parent_of(m.to)); !ok) return undo_after(fs, state_dir, roots, j, done - 1, ok.error());
    for (const auto* p : {&m.from, &m.to})  // resolved again right before acting: no link out appeared since
      if (auto ok = check_resolves_inside_any(*p, roots, "a move of this run"); !ok) return undo_after(fs, state_dir, roots, j, done - 1, ok.error());
    if (fs.entry(m.to) != FsEntry::missing)
      return undo_after(fs, state_dir, roots, j, done - 1,
                        Error{ErrorCode::io, fmt::format("cannot move '{}' to '{}': the target exists", m.from, m.to), "", m.to});
    if (auto ok = fs.append_line(progress, fmt::format("do {}", done)); !ok) return undo_after(fs, state_dir, roots, j, done - 1, ok.error());
    log::trace("move {} -> {}", m.from, m.to);
    if (auto ok = fs.rename(m.from, m.to); !ok) return undo_after(fs, state_dir, roots, j, done - 1, ok.error());
    crash_point(++done, nullptr);
  }
  return {};
}

// fs.flush of every path, several at once: each fsync mostly waits on the disk, and fsyncs that wait
// together share the file system's journal commits (one after another, 32 files cost 32 commits). Every
// flush has returned when this does; the first failing path's error (in `paths` order) is returned.
Result<void> flush_all(InstallFs& fs, const std::vector<std::string>& paths) {
  constexpr std::size_t k_flushers = 8;
  std::vector<std::optional<Error>> errors(paths.size());
  std::atomic<std::size_t> next{0};
  auto flusher = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < paths.size();)
      if (auto ok = fs.flush(paths[i]); !ok) errors[i] = ok.error();
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < std::min(k_flushers, paths.size()); ++t) threads.emplace_back(flusher);
  flusher();
  for (auto& t : threads) t.join();
  for (auto& e : errors)
    if (e) return Unexpected<Error>(std::move(*e));
  return {};
}

// Before the commit point: the moved files and the folders whose entries changed are on the disk, so
// "fully old or fully new" also holds across a power loss. The files first, then the folders (a folder's
// fsync after its new entries' files: the names never point at data that is not on the disk).
Result<void> flush_moves(InstallFs& fs, const Journal& j) {
  std::set<std::string> folders;
  std::vector<std::string> files;
  for (const auto& m : j.moves) {
    files.push_back(m.to);
    folders.insert(parent_of(m.to));
    folders.insert(parent_of(m.from));
  }
  CUDNNCTL_TRY(flush_all(fs, files));
  std::vector<std::string> existing;
  for (const auto& f : folders)
    if (fs.entry(f) != FsEntry::missing) existing.push_back(f);
  return flush_all(fs, existing);
}

Result<void> check_journal(const Journal& j, const std::string& state_dir, const Roots& roots) {
  if (auto ok = check_journal_paths(j, roots, state_dir); !ok) return ok;
  return check_journal_resolves(j, roots);
}

} // namespace

std::string journal_path(const std::string& state_dir) { return state_dir + "/journal.json"; }
std::string progress_path(const std::string& state_dir) { return state_dir + "/journal.progress"; }

Result<void> run_transaction(InstallFs& fs, const std::string& state_dir, Journal journal) {
  return run_transaction(fs, state_dir, std::move(journal), Roots{parent_of(state_dir)});
}

Result<void> run_transaction(InstallFs& fs, const std::string& state_dir, Journal journal, const std::vector<std::string>& roots) {
  if (auto ok = check_journal(journal, state_dir, roots); !ok) return ok;  // built from a receipt: check again
  platform::InterruptGuard guard;
  log::Phase apply_phase("apply (journaled moves)");
  journal.phase = "applying";
  auto drop_made = [&](Error e) -> Result<void> {
    for (const auto& d : journal.remove_on_rollback) drop_made_folder(fs, d);
    (void)fs.remove_file(progress_path(state_dir));
    return Unexpected<Error>(std::move(e));
  };
  if (auto ok = fs.write_atomic(progress_path(state_dir), "journal " + journal.id + "\n"); !ok) return drop_made(ok.error());
  if (auto ok = fs.write_atomic(journal_path(state_dir), to_json(journal)); !ok) return drop_made(ok.error());
  crash_point(-1, "journaled");
  if (auto ok = apply_moves(fs, state_dir, roots, journal); !ok) return ok;
  const int last = static_cast<int>(journal.moves.size()) - 1;
  if (auto ok = flush_moves(fs, journal); !ok) return undo_after(fs, state_dir, roots, journal, last, ok.error());
  if (const int sig = platform::InterruptGuard::caught()) return undo_after(fs, state_dir, roots, journal, last, interrupted_error(journal, sig));
  apply_phase.end();
  log::Phase commit_phase("commit");
  journal.phase = "committed";
  if (auto ok = fs.write_atomic(journal_path(state_dir), to_json(journal)); !ok) return undo_after(fs, state_dir, roots, journal, last, ok.error());
  crash_point(-1, "committed");
  cleanup_after_commit(fs, state_dir, journal);
  return {};
}

Result<std::optional<Journal>> read_journal(const InstallFs& fs, const std::string& state_dir) {
  const auto path = journal_path(state_dir);
  if (fs.entry(path) == FsEntry::missing) return std::optional<Journal>();
  CUDNNCTL_TRY_ASSIGN(auto text, fs.read_text(path));
  CUDNNCTL_TRY_ASSIGN(auto j, from_json(text, path));
  return std::optional<Journal>(std::move(j.journal));
}

Result<std::string> recover(InstallFs& fs, const std::string& state_dir) { return recover(fs, state_dir, Roots{parent_of(state_dir)}); }

Result<std::string> recover(InstallFs& fs, const std::string& state_dir, const std::vector<std::string>& roots) {
  const auto path = journal_path(state_dir);
  if (fs.entry(path) == FsEntry::missing) {
    (void)fs.remove_file(progress_path(state_dir));  // a roll-back that ended between its last two steps
    return std::string();
  }
  CUDNNCTL_TRY_ASSIGN(auto text, fs.read_text(path));
  CUDNNCTL_TRY_ASSIGN(auto read, from_json(text, path));
  const Journal& j = read.journal;
  // a journal names paths to move and folders to delete: all must be cudnnctl's own, or nothing is done
  CUDNNCTL_TRY(check_journal(j, state_dir, roots));
  platform::InterruptGuard guard;  // a roll-back, once begun, is finished
  if (j.phase == "committed") {
    cleanup_after_commit(fs, state_dir, j);
    return fmt::format("finished the interrupted '{}' (it had committed; only clean-up was left)", j.description);
  }
  const auto progress = read_progress(fs, state_dir, j.id);
  if (read.schema < 2 || !progress.known) {
    if (read.schema >= 2) {  // the progress file is written before the journal: no move began
      for (const auto& d : j.remove_on_rollback) drop_made_folder(fs, d);
      (void)fs.remove_file(path);
      return fmt::format("rolled back the interrupted '{}': it had not moved anything, the toolkit is as it was before it", j.description);
    }
    CUDNNCTL_TRY_ASSIGN(auto undecided, rollback_unproven(fs, state_dir, j));
    if (undecided == 0) return fmt::format("rolled back the interrupted '{}' (an older cudnnctl's journal): the toolkit is as it was before it", j.description);
    return fmt::format("rolled back what the tree proves of the interrupted '{}' (an older cudnnctl's journal); {} move{} with a file at "
                       "both ends were left as they are: check them",
                       j.description, undecided, undecided == 1 ? "" : "s");
  }
  if (progress.started >= static_cast<int>(j.moves.size()) || progress.undo_started >= static_cast<int>(j.moves.size()))
    return unsafe(fmt::format("refusing the install journal '{}': its progress names a move it does not list", path), path);
  CUDNNCTL_TRY(rollback(fs, state_dir, roots, j, progress, true));
  return fmt::format("rolled back the interrupted '{}': the toolkit is as it was before it", j.description);
}

} // namespace cudnnctl
