#pragma once
// The file operations an install transaction performs, behind a seam: the real file system, and a
// fault-injecting one that fails the Nth change (ENOSPC, EACCES, a failed rename) for tests.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

enum class FsEntry { missing, file, directory, symlink };

class InstallFs {
public:
  virtual ~InstallFs() = default;
  virtual FsEntry entry(const std::string& path) const = 0;
  virtual Result<void> make_dirs(const std::string& path) = 0;
  /// Moves a file or link; replaces nothing: the target must not exist. On one file system this is one
  /// atomic rename. Across file systems (EXDEV: a lib64 or include mounted elsewhere) the real one
  /// copies it beside the target (`<to>.cudnnctl-part`, mode and time kept, a link re-created as a
  /// link), flushes it, renames it into place and only then removes the source: at every moment the
  /// target is missing or complete, and a crash between the last two steps leaves the same content at
  /// both ends (which the transaction's roll-back recognizes).
  virtual Result<void> rename(const std::string& from, const std::string& to) = 0;
  /// Writes a file through a temporary and a rename, so readers see old or new, never half.
  virtual Result<void> write_atomic(const std::string& path, const std::string& content) = 0;
  virtual Result<std::string> read_text(const std::string& path) const = 0;
  virtual Result<void> remove_tree(const std::string& path) = 0;
  virtual Result<void> remove_file(const std::string& path) = 0;
  virtual Result<std::string> sha256(const std::string& path) const = 0;
  virtual Result<std::uint32_t> crc32(const std::string& path) const = 0;
  virtual Result<std::uint64_t> size(const std::string& path) const = 0;
  virtual Result<std::string> read_link(const std::string& path) const = 0;
  /// Files (and links) directly inside `dir`, by name.
  virtual std::vector<std::string> list(const std::string& dir) const = 0;
  /// Flushes a file's data or a folder's entries to the disk (links: nothing to do).
  virtual Result<void> flush(const std::string& path) = 0;
  /// Appends `line` (and a newline) to an existing file and flushes it to the disk before returning: the
  /// transaction's progress records. A crash mid-append leaves a last line without its newline.
  virtual Result<void> append_line(const std::string& path, const std::string& line) = 0;
};

/// The name a move across file systems writes its copy under, beside the target, before renaming it
/// into place. One left by a crash is removed by the roll-back.
inline constexpr std::string_view cross_fs_part_suffix = ".cudnnctl-part";

/// The real file system. Test seam (every change it makes, counted from 1 in each process: make_dirs,
/// rename, write_atomic, remove_*, append_line): CUDNNCTL_FAULT_LOG=FILE appends "N op path" for each,
/// so a test learns how many a clean run makes; CUDNNCTL_FAULT_AT_CHANGE=N stops the process right
/// before the N-th, by SIGKILL, or by the signal CUDNNCTL_FAULT_SIGNAL names (INT, TERM: delivered as a
/// user's Ctrl-C would be, after which the change goes ahead unless the run stops for it).
/// `always_copy` (tests): every move is done the way a move across file systems
/// is, as if every target were on another one.
std::unique_ptr<InstallFs> make_real_fs(bool always_copy = false);

enum class Fault { no_space, access_denied, rename_failed };

/// Passes everything to `inner` but fails the `fail_at`-th changing call (1-based: make_dirs, rename,
/// write_atomic, remove_*) with `fault`, once. Counts changing calls so tests can walk every step.
class FaultyFs final : public InstallFs {
public:
  FaultyFs(InstallFs& inner, std::optional<int> fail_at, Fault fault) : m_inner(inner), m_fail_at(fail_at), m_fault(fault) {}
  int changes() const { return m_changes; }
  bool fired() const { return m_fired; }

  FsEntry entry(const std::string& p) const override { return m_inner.entry(p); }
  Result<void> make_dirs(const std::string& p) override;
  Result<void> rename(const std::string& a, const std::string& b) override;
  Result<void> write_atomic(const std::string& p, const std::string& c) override;
  Result<std::string> read_text(const std::string& p) const override { return m_inner.read_text(p); }
  Result<void> remove_tree(const std::string& p) override;
  Result<void> remove_file(const std::string& p) override;
  Result<std::string> sha256(const std::string& p) const override { return m_inner.sha256(p); }
  Result<std::uint32_t> crc32(const std::string& p) const override { return m_inner.crc32(p); }
  Result<std::uint64_t> size(const std::string& p) const override { return m_inner.size(p); }
  Result<std::string> read_link(const std::string& p) const override { return m_inner.read_link(p); }
  std::vector<std::string> list(const std::string& d) const override { return m_inner.list(d); }
  Result<void> flush(const std::string& p) override { return m_inner.flush(p); }
  Result<void> append_line(const std::string& p, const std::string& l) override;

private:
  Result<void> maybe_fail(const std::string& what, const std::string& path);
  InstallFs& m_inner;
  std::optional<int> m_fail_at;
  Fault m_fault;
  int m_changes = 0;
  bool m_fired = false;
};

} // namespace cudnnctl
