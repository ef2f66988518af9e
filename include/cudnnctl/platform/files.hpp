#pragma once
// The file operations extraction needs, without following links and without replacing anything.
#include <cstdint>
#include <cstdio>
#include <string>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::platform {

/// A file created new for writing: creation fails if anything (a file, a link) already has the name.
class NewFile {
public:
  static Result<NewFile> create(const std::string& path, std::uint32_t mode);
  NewFile(NewFile&& other) noexcept;
  NewFile& operator=(NewFile&&) = delete;
  ~NewFile();
  Result<void> write(const void* data, std::size_t n);
  /// Asks the OS to start writing the bytes written since the last call to the disk, without waiting
  /// (Linux: sync_file_range WRITE; elsewhere nothing). The fsync that makes them durable comes later
  /// and then finds them on the disk or on their way: the disk works while the CPU inflates.
  void start_writeback();
  /// Bytes written and not yet handed to start_writeback.
  std::uint64_t unsubmitted() const { return m_written - m_submitted; }
  Result<void> close();

private:
  explicit NewFile(std::string path, std::intptr_t handle) : m_path(std::move(path)), m_handle(handle) {}
  std::string m_path;
  std::intptr_t m_handle = -1;
  std::uint64_t m_written = 0, m_submitted = 0;
};

/// A file opened for positional reads (several readers may share nothing: each opens its own).
class ReadOnlyFile {
public:
  static Result<ReadOnlyFile> open(const std::string& path);
  /// The same, for a file another handle is still writing (a download's `.part` file, read as it grows):
  /// on Windows the handle lets writers open it too (FILE_SHARE_WRITE).
  static Result<ReadOnlyFile> open_while_written(const std::string& path);
  ReadOnlyFile(ReadOnlyFile&& other) noexcept;
  ReadOnlyFile& operator=(ReadOnlyFile&&) = delete;
  ~ReadOnlyFile();
  std::uint64_t size() const { return m_size; }
  /// Reads up to `n` bytes at `offset`; returns the count (0 at the end) or -1 on error (errno set).
  std::int64_t read_at(std::uint64_t offset, void* buffer, std::size_t n) const;

private:
  ReadOnlyFile(std::intptr_t handle, std::uint64_t size) : m_handle(handle), m_size(size) {}
  static Result<ReadOnlyFile> open_sharing(const std::string& path, bool with_writers);  // Windows: the share mode
  std::intptr_t m_handle = -1;
  std::uint64_t m_size = 0;
};

/// A file written at offsets by several threads at once (a download's `.part` file): opened read-write,
/// created when missing, never truncated on open; a link at the name is refused.
class PositionalFile {
public:
  static Result<PositionalFile> open(const std::string& path);
  PositionalFile(PositionalFile&& other) noexcept;
  PositionalFile& operator=(PositionalFile&&) = delete;
  ~PositionalFile();
  /// Writes all `n` bytes at `offset` (safe from several threads for disjoint ranges).
  Result<void> write_at(std::uint64_t offset, const void* data, std::size_t n) const;
  /// Reads up to `n` bytes at `offset` through the same handle (Windows refuses a second, read-only open
  /// of a file open for writing); returns the count (0 at the end) or -1 on error.
  std::int64_t read_at(std::uint64_t offset, void* buffer, std::size_t n) const;
  /// Sets the file's length (cuts or extends with zeros).
  Result<void> resize(std::uint64_t size) const;
  Result<void> close();

private:
  PositionalFile(std::string path, std::intptr_t handle) : m_path(std::move(path)), m_handle(handle) {}
  std::string m_path;
  std::intptr_t m_handle = -1;
};

/// Opens a C stdio stream on a UTF-8 path (`fopen`'s modes): `fopen` itself takes the ANSI code page on
/// Windows, so a FILE* is opened here (tools/check_utf8_paths.py, CTest arch.utf8_paths). nullptr (errno
/// set) when it cannot be opened.
std::FILE* open_stdio_file(const std::string& path, const char* mode);

/// Creates `path` and its missing parents (mode 0755). Fails if a component exists and is not a directory.
Result<void> make_directories(const std::string& path);
/// Creates a symbolic link at `path` pointing to `target` (stored as given).
Result<void> make_symlink(const std::string& target, const std::string& path);
/// What identifies a file's content without reading it: size, modification and change times, file id.
/// Two equal stamps taken before and after reading mean nobody wrote to or replaced the file meanwhile
/// (a write moves the change time, which no program can set back).
struct FileStamp {
  std::uint64_t size = 0, modified = 0, changed = 0, id = 0;
  bool operator==(const FileStamp&) const = default;
};
Result<FileStamp> file_stamp(const std::string& path);

/// Size of a regular file; error if missing.
Result<std::uint64_t> file_size(const std::string& path);
/// Converts bytes in `encoding` (CP437, GBK, ...) to UTF-8.
Result<std::string> convert_to_utf8(std::string_view bytes, const std::string& encoding);
/// Moves a file that may be in use (a loaded DLL) out of the way: renamed beside itself, then scheduled
/// for deletion at the next reboot where the system allows it. Returns the new name. POSIX renames
/// freely, so there it is a plain rename.
Result<std::string> rename_aside(const std::string& path);

/// Writes `content` to `path` (created, or truncated when it is a file; a link there is refused) and
/// flushes it to the disk before returning. Errors keep the system's reason (no space, read-only, ...).
Result<void> write_file_durably(const std::string& path, const std::string& content);
/// Flushes a regular file's data, or a folder's entries (names created, renamed or removed in it), to the
/// disk. Links are left alone. On Windows, folder entries are flushed with the volume's metadata.
Result<void> flush_to_disk(const std::string& path);

/// Where a folder lives: its file system (an id; equal ids mean renames between them work) and whether
/// that file system is mounted read-only. Follows links.
struct FolderPlace {
  std::uint64_t file_system = 0;
  bool read_only = false;
};
Result<FolderPlace> folder_place(const std::string& path);

/// Removes a directory tree (used to drop staging after a failure). Best effort.
void remove_tree(const std::string& path);

} // namespace cudnnctl::platform
