#include "cudnnctl/install/install_fs.hpp"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "cudnnctl/base/crc32.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/permission_hint.hpp"
#include "cudnnctl/platform/process.hpp"
#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {

Unexpected<Error> fs_error(const std::string& what, const std::string& path, const std::error_code& ec) {
  std::string hint;
  if (ec == std::errc::permission_denied || ec == std::errc::operation_not_permitted)
    hint = platform::permission_hint();
  else if (ec == std::errc::no_space_on_device)
    hint = "the disk is full: free space and run cudnnctl again (the toolkit was left as it was)";
  else if (ec == std::errc::read_only_file_system)
    hint = "the file system is mounted read-only: remount it read-write, then run cudnnctl again";
  return fail(ErrorCode::io, fmt::format("cannot {} '{}': {}", what, path, ec.message()), hint, path);
}

// Test seam: CUDNNCTL_FAULT_KILL_IN_COPY=N kills the process (SIGKILL) in the N-th move across file
// systems, after its copy is in place and before its source is removed.
void copy_crash_point() {
  static int moves = 0;
  ++moves;
  if (const char* n = std::getenv("CUDNNCTL_FAULT_KILL_IN_COPY"); n && std::atoi(n) == moves) platform::kill_self();
}

// Copies a regular file's bytes into a new file with the same permission bits. Not fs::copy_file:
// libstdc++ reports a full disk there as "Input/output error"; this keeps the system's reason.
Result<void> copy_file_keeping_errno(const std::string& from, const std::string& to, fs::perms perms) {
  CUDNNCTL_TRY_ASSIGN(auto in, platform::ReadOnlyFile::open(from));
  CUDNNCTL_TRY_ASSIGN(auto out, platform::NewFile::create(to, static_cast<std::uint32_t>(perms & fs::perms::all) | 0600U));  // writable while copying
  std::vector<char> buffer(std::size_t{1} << 20);
  for (std::uint64_t offset = 0;;) {
    const auto n = in.read_at(offset, buffer.data(), buffer.size());
    if (n < 0) return fs_error("read", from, std::error_code(errno, std::generic_category()));
    if (n == 0) break;
    if (auto ok = out.write(buffer.data(), static_cast<std::size_t>(n)); !ok) return ok;
    offset += static_cast<std::uint64_t>(n);
  }
  if (auto ok = out.close(); !ok) return ok;
  std::error_code ec;
  fs::permissions(path_from_utf8(to), perms & fs::perms::all, fs::perm_options::replace, ec);  // exactly the source's (no umask)
  if (ec) return fs_error("set the permissions of", to, ec);
  return {};
}

// A move across file systems: copy beside the target, flush, rename into place, then remove the source.
// The target is missing or complete at every moment; any failure leaves the source where it was.
Result<void> move_by_copy(const std::string& a, const std::string& b) {
  const auto from = path_from_utf8(a);
  const std::string part_name = b + std::string(cross_fs_part_suffix);
  const auto part = path_from_utf8(part_name);
  std::error_code ec;
  const auto st = fs::symlink_status(from, ec);
  if (ec) return fs_error("read", a, ec);
  std::error_code ignored;
  fs::remove(part, ignored);  // a copy an interrupted run left
  auto drop_part = [&](const std::string& what, const std::string& path, const std::error_code& e) {
    std::error_code ignored2;
    fs::remove(part, ignored2);
    return fs_error(what, path, e);
  };
  if (fs::is_symlink(st)) {
    const auto target = fs::read_symlink(from, ec);  // a link stays a link, so symlink chains are kept
    if (ec) return fs_error("read the link", a, ec);
    fs::create_symlink(target, part, ec);
    if (ec) return drop_part("create the link", part_name, ec);
  } else if (fs::is_regular_file(st)) {
    if (auto ok = copy_file_keeping_errno(a, part_name, st.permissions()); !ok) {
      fs::remove(part, ignored);
      return ok;
    }
    const auto when = fs::last_write_time(from, ec);
    if (!ec) fs::last_write_time(part, when, ignored);
    if (auto ok = platform::flush_to_disk(part_name); !ok) {
      fs::remove(part, ignored);
      return ok;
    }
  } else {
    return fail(ErrorCode::io, fmt::format("cannot move '{}' to '{}': only files and links are moved across file systems", a, b), "", a);
  }
  fs::rename(part, path_from_utf8(b), ec);  // same folder: atomic
  if (ec) return drop_part(fmt::format("move '{}' to", part_name), b, ec);
  if (auto ok = platform::flush_to_disk(parent_of(b)); !ok) {  // the new name is on the disk before the source goes
    fs::remove(path_from_utf8(b), ignored);
    return ok;
  }
  copy_crash_point();
  fs::remove(from, ec);
  if (ec) {  // undo the placement, so the move did not happen
    fs::remove(path_from_utf8(b), ignored);
    return fs_error("remove", a, ec);
  }
  return {};
}

// Test seam: see make_real_fs.
void change_point(std::string_view op, const std::string& path) {
  static int changes = 0;
  ++changes;
  if (const char* log = std::getenv("CUDNNCTL_FAULT_LOG"); log && *log) {
    std::ofstream out(path_from_utf8(log), std::ios::app);
    out << changes << ' ' << op << ' ' << path << '\n';
  }
  const char* at = std::getenv("CUDNNCTL_FAULT_AT_CHANGE");
  if (!at || std::atoi(at) != changes) return;
  const std::string sig = std::getenv("CUDNNCTL_FAULT_SIGNAL") ? std::getenv("CUDNNCTL_FAULT_SIGNAL") : "KILL";
  if (sig == "INT") platform::InterruptGuard::deliver(2);
  else if (sig == "TERM") platform::InterruptGuard::deliver(15);
  else platform::kill_self();
}

class RealFs final : public InstallFs {
public:
  explicit RealFs(bool always_copy) : m_always_copy(always_copy) {}
  FsEntry entry(const std::string& p) const override {
    std::error_code ec;
    const auto st = fs::symlink_status(path_from_utf8(p), ec);
    if (ec || !fs::exists(st)) return FsEntry::missing;
    if (fs::is_symlink(st)) return FsEntry::symlink;
    if (fs::is_directory(st)) return FsEntry::directory;
    return FsEntry::file;
  }
  Result<void> make_dirs(const std::string& p) override {
    if (entry(p) == FsEntry::directory) return {};  // nothing to change
    change_point("make_dirs", p);
    std::error_code ec;
    fs::create_directories(path_from_utf8(p), ec);
    if (ec) return fs_error("create the folder", p, ec);
    return {};
  }
  Result<void> rename(const std::string& a, const std::string& b) override {
    change_point("rename", a + " -> " + b);
    if (entry(b) != FsEntry::missing)
      return fail(ErrorCode::io, fmt::format("cannot move '{}' to '{}': the target exists", a, b), "", b);
    if (m_always_copy) return move_by_copy(a, b);
    std::error_code ec;
    fs::rename(path_from_utf8(a), path_from_utf8(b), ec);
    if (ec == std::errc::cross_device_link) return move_by_copy(a, b);  // lib64 or include on another file system
    if (ec) return fs_error(fmt::format("move '{}' to", a), b, ec);
    return {};
  }
  Result<void> write_atomic(const std::string& p, const std::string& content) override {
    change_point("write", p);
    const std::string tmp = p + ".tmp";
    if (auto ok = platform::write_file_durably(tmp, content); !ok) {  // on the disk before it replaces anything
      std::error_code ignored;
      fs::remove(path_from_utf8(tmp), ignored);
      return ok;
    }
    std::error_code ec;
    fs::rename(path_from_utf8(tmp), path_from_utf8(p), ec);  // replaces: this is how a journal or receipt moves to its next state
    if (ec) return fs_error("replace", p, ec);
    return platform::flush_to_disk(parent_of(p));
  }
  Result<void> flush(const std::string& p) override { return platform::flush_to_disk(p); }
  Result<void> append_line(const std::string& p, const std::string& line) override {
    change_point("append", p);
    {
      std::ofstream out(path_from_utf8(p), std::ios::binary | std::ios::app);
      if (!out) return fs_error("append to", p, std::error_code(errno ? errno : EIO, std::generic_category()));
      out << line << '\n';
      out.flush();
      if (!out) return fs_error("append to", p, std::error_code(errno ? errno : EIO, std::generic_category()));
    }
    return platform::flush_to_disk(p);
  }
  Result<std::string> read_text(const std::string& p) const override {
    std::ifstream in(path_from_utf8(p), std::ios::binary);
    if (!in) return fail(ErrorCode::file_not_found, fmt::format("cannot read '{}'", p), "", p);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  Result<void> remove_tree(const std::string& p) override {
    change_point("remove_tree", p);
    std::error_code ec;
    fs::remove_all(path_from_utf8(p), ec);
    if (ec) return fs_error("remove", p, ec);
    return {};
  }
  Result<void> remove_file(const std::string& p) override {
    change_point("remove_file", p);
    std::error_code ec;
    fs::remove(path_from_utf8(p), ec);
    if (ec) return fs_error("remove", p, ec);
    return {};
  }
  Result<std::string> sha256(const std::string& p) const override { return sha256_file(p); }
  Result<std::uint32_t> crc32(const std::string& p) const override { return crc32_file(p); }
  Result<std::uint64_t> size(const std::string& p) const override { return platform::file_size(p); }
  Result<std::string> read_link(const std::string& p) const override {
    std::error_code ec;
    const auto t = fs::read_symlink(path_from_utf8(p), ec);
    if (ec) return fs_error("read the link", p, ec);
    return utf8_of(t);
  }
  std::vector<std::string> list(const std::string& d) const override {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(path_from_utf8(d), ec))
      if (!e.is_directory(ec) || e.is_symlink(ec)) out.push_back(utf8_of(e.path().filename()));
    return out;
  }

private:
  bool m_always_copy = false;
};

} // namespace

std::unique_ptr<InstallFs> make_real_fs(bool always_copy) { return std::make_unique<RealFs>(always_copy); }

Result<void> FaultyFs::maybe_fail(const std::string& what, const std::string& path) {
  ++m_changes;
  if (m_fired || !m_fail_at || m_changes != *m_fail_at) return {};
  m_fired = true;
  switch (m_fault) {
  case Fault::no_space: return fs_error(what, path, std::make_error_code(std::errc::no_space_on_device));
  case Fault::access_denied: return fs_error(what, path, std::make_error_code(std::errc::permission_denied));
  case Fault::rename_failed: return fs_error(what, path, std::make_error_code(std::errc::cross_device_link));
  }
  return {};
}

Result<void> FaultyFs::make_dirs(const std::string& p) {
  if (auto f = maybe_fail("create the folder", p); !f) return f;
  return m_inner.make_dirs(p);
}
Result<void> FaultyFs::rename(const std::string& a, const std::string& b) {
  if (auto f = maybe_fail("move into", b); !f) return f;
  return m_inner.rename(a, b);
}
Result<void> FaultyFs::write_atomic(const std::string& p, const std::string& c) {
  if (auto f = maybe_fail("write", p); !f) return f;
  return m_inner.write_atomic(p, c);
}
Result<void> FaultyFs::remove_tree(const std::string& p) {
  if (auto f = maybe_fail("remove", p); !f) return f;
  return m_inner.remove_tree(p);
}
Result<void> FaultyFs::append_line(const std::string& p, const std::string& l) {
  if (auto f = maybe_fail("append to", p); !f) return f;
  return m_inner.append_line(p, l);
}
Result<void> FaultyFs::remove_file(const std::string& p) {
  if (auto f = maybe_fail("remove", p); !f) return f;
  return m_inner.remove_file(p);
}

} // namespace cudnnctl
