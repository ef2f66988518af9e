#include "cudnnctl/install/transaction.hpp"

#include <cstdlib>
#include <optional>
#include <set>
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/install/state_check.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace {

std::string parent_of(const std::string& p) { return utf8_of(path_from_utf8(p).parent_path()); }

std::string to_json(const Journal& j) {
  nlohmann::json moves = nlohmann::json::array();
  for (const auto& m : j.moves) moves.push_back({{"from", m.from}, {"to", m.to}});
  return nlohmann::json{{"schema_version", 1},
                        {"id", j.id},
                        {"description", j.description},
                        {"phase", j.phase},
                        {"moves", moves},
                        {"remove_on_commit", j.remove_on_commit},
                        {"remove_on_rollback", j.remove_on_rollback}}
             .dump(1);
}

Result<Journal> from_json(const std::string& text, const std::string& path) {
  try {
    const auto doc = nlohmann::json::parse(text);
    Journal j;
    j.id = doc.at("id").get<std::string>();
    j.description = doc.value("description", "");
    j.phase = doc.at("phase").get<std::string>();
    for (const auto& m : doc.at("moves")) j.moves.push_back({m.at("from").get<std::string>(), m.at("to").get<std::string>()});
    j.remove_on_commit = doc.value("remove_on_commit", std::vector<std::string>{});
    j.remove_on_rollback = doc.value("remove_on_rollback", std::vector<std::string>{});
    return j;
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

// Both ends of a move hold the same thing: a move across file systems that a crash cut after its copy
// was renamed into place and before its source was removed.
bool same_content(const InstallFs& fs, const std::string& a, const std::string& b) {
  const auto kind = fs.entry(a);
  if (kind != fs.entry(b)) return false;
  if (kind == FsEntry::symlink) {
    const auto x = fs.read_link(a), y = fs.read_link(b);
    return x && y && *x == *y;
  }
  if (kind != FsEntry::file) return false;
  const auto sa = fs.size(a), sb = fs.size(b);
  if (!sa || !sb || *sa != *sb) return false;
  const auto ha = fs.sha256(a), hb = fs.sha256(b);
  return ha && hb && *ha == *hb;
}

// `after_crash`: undoing what a dead run left. A run that fails undoes its own failed move at once, so
// only after a crash can both ends of a move hold its content.
Result<void> rollback(InstallFs& fs, const Journal& j, bool after_crash) {
  std::optional<Error> first;
  for (auto it = j.moves.rbegin(); it != j.moves.rend(); ++it) {
    // a copy a move across file systems (this one, or its roll-back) was writing when it was cut
    for (const auto& end : {it->to, it->from})
      if (const auto part = end + std::string(cross_fs_part_suffix); fs.entry(part) != FsEntry::missing)
        if (auto ok = fs.remove_file(part); !ok && !first) first = ok.error();
    if (fs.entry(it->to) == FsEntry::missing) continue;  // not done
    if (fs.entry(it->from) != FsEntry::missing) {
      // not done, or a move across file systems cut before its source was removed: then the target is
      // a complete copy of the source, and dropping it undoes the move
      if (after_crash && same_content(fs, it->from, it->to))
        if (auto ok = fs.remove_file(it->to); !ok && !first) first = ok.error();
      continue;
    }
    if (auto ok = fs.make_dirs(parent_of(it->from)); !ok && !first) first = ok.error();
    if (auto ok = fs.rename(it->to, it->from); !ok && !first) first = ok.error();
  }
  for (const auto& d : j.remove_on_rollback) (void)fs.remove_tree(d);
  if (first) return Unexpected<Error>(*first);
  return {};
}

void cleanup_after_commit(InstallFs& fs, const std::string& state_dir, const Journal& j) {
  for (const auto& d : j.remove_on_commit) (void)fs.remove_tree(d);
  (void)fs.remove_file(journal_path(state_dir));
}

} // namespace

std::string journal_path(const std::string& state_dir) { return state_dir + "/journal.json"; }

Result<void> run_transaction(InstallFs& fs, const std::string& state_dir, Journal journal) {
  return run_transaction(fs, state_dir, std::move(journal), std::vector<std::string>{parent_of(state_dir)});
}

Result<void> run_transaction(InstallFs& fs, const std::string& state_dir, Journal journal, const std::vector<std::string>& roots) {
  if (auto ok = check_journal_paths(journal, roots, state_dir); !ok) return ok;  // built from a receipt: check again
  log::Phase apply_phase("apply (journaled moves)");
  journal.phase = "applying";
  if (auto ok = fs.write_atomic(journal_path(state_dir), to_json(journal)); !ok) {
    for (const auto& d : journal.remove_on_rollback) (void)fs.remove_tree(d);
    return ok;
  }
  crash_point(-1, "journaled");
  auto undo = [&](const Error& cause) -> Result<void> {
    auto rolled = rollback(fs, journal, false);
    Error e = cause;
    if (rolled) {
      (void)fs.remove_file(journal_path(state_dir));
      e.message += "; every change was rolled back, the toolkit is as it was";
    } else {
      e.message += fmt::format("; rolling back also failed ({}): the journal {} stays, and the next cudnnctl run on this "
                               "toolkit finishes the roll-back",
                               rolled.error().message, journal_path(state_dir));
    }
    return Unexpected<Error>(e);
  };
  int done = 0;
  for (const auto& m : journal.moves) {
    if (auto ok = fs.make_dirs(parent_of(m.to)); !ok) return undo(ok.error());
    log::trace("move {} -> {}", m.from, m.to);
    if (auto ok = fs.rename(m.from, m.to); !ok) return undo(ok.error());
    crash_point(++done, nullptr);
  }
  // before the commit point: the moved files and the folders whose entries changed are on the disk, so
  // "fully old or fully new" also holds across a power loss
  std::set<std::string> folders;
  for (const auto& m : journal.moves) {
    if (auto ok = fs.flush(m.to); !ok) return undo(ok.error());
    folders.insert(parent_of(m.to));
    folders.insert(parent_of(m.from));
  }
  for (const auto& f : folders)
    if (fs.entry(f) != FsEntry::missing)
      if (auto ok = fs.flush(f); !ok) return undo(ok.error());
  apply_phase.end();
  log::Phase commit_phase("commit");
  journal.phase = "committed";
  if (auto ok = fs.write_atomic(journal_path(state_dir), to_json(journal)); !ok) return undo(ok.error());
  crash_point(-1, "committed");
  cleanup_after_commit(fs, state_dir, journal);
  return {};
}

Result<std::optional<Journal>> read_journal(const InstallFs& fs, const std::string& state_dir) {
  const auto path = journal_path(state_dir);
  if (fs.entry(path) == FsEntry::missing) return std::optional<Journal>();
  auto text = fs.read_text(path);
  if (!text) return Unexpected<Error>(text.error());
  auto j = from_json(*text, path);
  if (!j) return Unexpected<Error>(j.error());
  return std::optional<Journal>(std::move(*j));
}

Result<std::string> recover(InstallFs& fs, const std::string& state_dir) {
  return recover(fs, state_dir, std::vector<std::string>{parent_of(state_dir)});
}

Result<std::string> recover(InstallFs& fs, const std::string& state_dir, const std::vector<std::string>& roots) {
  const auto path = journal_path(state_dir);
  if (fs.entry(path) == FsEntry::missing) return std::string();
  auto text = fs.read_text(path);
  if (!text) return Unexpected<Error>(text.error());
  auto j = from_json(*text, path);
  if (!j) return Unexpected<Error>(j.error());
  // a journal names paths to move and folders to delete: all must be cudnnctl's own, or nothing is done
  if (auto ok = check_journal_paths(*j, roots, state_dir); !ok) return Unexpected<Error>(ok.error());
  if (j->phase == "committed") {
    cleanup_after_commit(fs, state_dir, *j);
    return fmt::format("finished the interrupted '{}' (it had committed; only clean-up was left)", j->description);
  }
  if (auto ok = rollback(fs, *j, true); !ok) return Unexpected<Error>(ok.error());
  (void)fs.remove_file(path);
  return fmt::format("rolled back the interrupted '{}': the toolkit is as it was before it", j->description);
}

} // namespace cudnnctl
