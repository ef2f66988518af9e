#include "cudnnctl/platform/files.hpp"

#include <fcntl.h>
#include <iconv.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl::platform {

std::FILE* open_stdio_file(const std::string& path, const char* mode) { return std::fopen(path.c_str(), mode); }

namespace {
Unexpected<Error> io_error(const std::string& what, const std::string& path, int e) {
  std::string hint;
  if (e == ENOSPC) hint = "the disk is full: free space and run cudnnctl again";
  else if (e == EROFS) hint = "the file system is mounted read-only: remount it read-write, or choose a folder on another one";
  else if (e == EACCES || e == EPERM) hint = "permission denied: check the folder's owner and permissions";
  else if (e == EEXIST) hint = "something already has this name; the target must be empty";
  return fail(ErrorCode::io, fmt::format("{} '{}': {}", what, path, std::strerror(e)), hint, path);
}
} // namespace

Result<NewFile> NewFile::create(const std::string& path, std::uint32_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, static_cast<mode_t>(mode & 0777));
  if (fd < 0) return io_error("cannot create", path, errno);
  return NewFile(path, fd);
}

NewFile::NewFile(NewFile&& other) noexcept
    : m_path(std::move(other.m_path)), m_handle(other.m_handle), m_written(other.m_written), m_submitted(other.m_submitted) {
  other.m_handle = -1;
}

NewFile::~NewFile() {
  if (m_handle >= 0) ::close(static_cast<int>(m_handle));
}

Result<void> NewFile::write(const void* data, std::size_t n) {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(static_cast<int>(m_handle), p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot write", m_path, errno);
    }
    p += w;
    n -= static_cast<std::size_t>(w);
    m_written += static_cast<std::uint64_t>(w);
  }
  return {};
}

void NewFile::start_writeback() {
  if (m_handle < 0 || m_written == m_submitted) return;
#if defined(__linux__)
  // a hint only: an error here (EINVAL on a file system without it) leaves the later fsync to do the work
  (void)::sync_file_range(static_cast<int>(m_handle), static_cast<off64_t>(m_submitted),
                          static_cast<off64_t>(m_written - m_submitted), SYNC_FILE_RANGE_WRITE);
#endif
  m_submitted = m_written;
}

Result<void> NewFile::close() {
  const int fd = static_cast<int>(m_handle);
  m_handle = -1;
  if (fd >= 0 && ::close(fd) != 0) return io_error("cannot close", m_path, errno);
  return {};
}

Result<PositionalFile> PositionalFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return io_error("cannot open for writing", path, errno);
  return PositionalFile(path, fd);
}

PositionalFile::PositionalFile(PositionalFile&& other) noexcept : m_path(std::move(other.m_path)), m_handle(other.m_handle) {
  other.m_handle = -1;
}

PositionalFile::~PositionalFile() {
  if (m_handle >= 0) ::close(static_cast<int>(m_handle));
}

Result<void> PositionalFile::write_at(std::uint64_t offset, const void* data, std::size_t n) const {
  const auto* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::pwrite(static_cast<int>(m_handle), p, n, static_cast<off_t>(offset));
    if (w < 0) {
      if (errno == EINTR) continue;
      return io_error("cannot write", m_path, errno);
    }
    p += w;
    n -= static_cast<std::size_t>(w);
    offset += static_cast<std::uint64_t>(w);
  }
  return {};
}

std::int64_t PositionalFile::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  for (;;) {
    const ssize_t r = ::pread(static_cast<int>(m_handle), buffer, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    return r;
  }
}

Result<void> PositionalFile::resize(std::uint64_t size) const {
  if (::ftruncate(static_cast<int>(m_handle), static_cast<off_t>(size)) != 0) return io_error("cannot set the size of", m_path, errno);
  return {};
}

Result<void> PositionalFile::close() {
  const int fd = static_cast<int>(m_handle);
  m_handle = -1;
  if (fd >= 0 && ::close(fd) != 0) return io_error("cannot close", m_path, errno);
  return {};
}

Result<ReadOnlyFile> ReadOnlyFile::open(const std::string& path) {
  // O_NONBLOCK: a FIFO put where a file was checked a moment ago cannot hang the open (it is refused below)
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    log::debug("open for reading {}: {}", path, std::strerror(e));
    if (e == ENOENT)
      return Unexpected<Error>(missing_file_error(path, "", "check the path of the archive"));
    return io_error("cannot open", path, e);
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int e = errno;
    ::close(fd);
    if (st.st_mode != 0 && !S_ISREG(st.st_mode))
      return fail(ErrorCode::input_invalid, fmt::format("'{}' is not a regular file (a FIFO, a device, a socket or a folder)", path),
                  "name the file itself", path);
    return io_error("cannot read the status of", path, e);
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  log::debug("open for reading {}: {} bytes", path, st.st_size);
  return ReadOnlyFile(fd, static_cast<std::uint64_t>(st.st_size));
}

ReadOnlyFile::ReadOnlyFile(ReadOnlyFile&& other) noexcept : m_handle(other.m_handle), m_size(other.m_size) { other.m_handle = -1; }

ReadOnlyFile::~ReadOnlyFile() {
  if (m_handle >= 0) ::close(static_cast<int>(m_handle));
}

Result<ReadOnlyFile> ReadOnlyFile::open_while_written(const std::string& path) { return open(path); }

std::int64_t ReadOnlyFile::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  for (;;) {
    const ssize_t r = ::pread(static_cast<int>(m_handle), buffer, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    return r;
  }
}

Result<void> make_directories(const std::string& path) {
  std::string partial;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    const auto next = path.find('/', pos);
    partial = path.substr(0, next == std::string::npos ? path.size() : next);
    pos = next == std::string::npos ? path.size() + 1 : next + 1;
    if (partial.empty()) continue;
    struct stat st {};
    if (::lstat(partial.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return io_error("not a directory:", partial, ENOTDIR);
      continue;
    }
    if (::mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) return io_error("cannot create the folder", partial, errno);
  }
  return {};
}

Result<void> make_symlink(const std::string& target, const std::string& path) {
  if (::symlink(target.c_str(), path.c_str()) != 0) return io_error("cannot create the symbolic link", path, errno);
  return {};
}

Result<FileStamp> file_stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return io_error("cannot read", path, errno);
  const auto ns = [](const timespec& t) { return static_cast<std::uint64_t>(t.tv_sec) * 1000000000u + static_cast<std::uint64_t>(t.tv_nsec); };
  return FileStamp{static_cast<std::uint64_t>(st.st_size), ns(st.st_mtim), ns(st.st_ctim),
                   static_cast<std::uint64_t>(st.st_ino) ^ (static_cast<std::uint64_t>(st.st_dev) << 40)};
}

Result<std::uint64_t> file_size(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int e = errno;
    if (e == ENOENT)
      return Unexpected<Error>(missing_file_error(path, "", "check the path of the archive"));
    return io_error("cannot read", path, e);
  }
  if (!S_ISREG(st.st_mode))
    return fail(ErrorCode::io, fmt::format("'{}' is not a regular file", path), "give the path of the archive file", path);
  return static_cast<std::uint64_t>(st.st_size);
}

Result<std::string> convert_to_utf8(std::string_view bytes, const std::string& encoding) {
  iconv_t cd = ::iconv_open("UTF-8", encoding.c_str());
  if (cd == reinterpret_cast<iconv_t>(-1))
    return fail(ErrorCode::usage, fmt::format("unknown name encoding '{}'", encoding),
                "use an encoding iconv knows, e.g. CP437, CP936, GBK, SHIFT_JIS, CP1252 ('iconv -l' lists them)");
  std::string in(bytes);
  std::string out(bytes.size() * 4 + 16, '\0');
  char* inp = in.data();
  std::size_t inleft = in.size();
  char* outp = out.data();
  std::size_t outleft = out.size();
  const std::size_t rc = ::iconv(cd, &inp, &inleft, &outp, &outleft);
  ::iconv_close(cd);
  if (rc == static_cast<std::size_t>(-1))
    return fail(ErrorCode::archive_encoding,
                fmt::format("the bytes at offset {} are not valid {}", in.size() - inleft, encoding), "");
  out.resize(out.size() - outleft);
  return out;
}

Result<std::string> rename_aside(const std::string& path) {
  const std::string aside = path + ".cudnnctl-old";
  if (::rename(path.c_str(), aside.c_str()) != 0) return io_error("cannot move aside", path, errno);
  return aside;
}

Result<void> write_file_durably(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return io_error("cannot write", path, errno);
  const char* p = content.data();
  std::size_t n = content.size();
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      const int e = errno;
      ::close(fd);
      return io_error("cannot write", path, e);
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  if (::fsync(fd) != 0) {
    const int e = errno;
    ::close(fd);
    return io_error("cannot flush to disk", path, e);
  }
  if (::close(fd) != 0) return io_error("cannot write", path, errno);
  return {};
}

Result<void> flush_to_disk(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return io_error("cannot flush to disk", path, errno);
  if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) return {};
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
  if (fd < 0) return io_error("cannot flush to disk", path, errno);
  const int rc = ::fsync(fd);
  const int e = errno;
  ::close(fd);
  if (rc != 0 && e != EINVAL) return io_error("cannot flush to disk", path, e);  // EINVAL: the file system has no fsync
  return {};
}

Result<FolderPlace> folder_place(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return io_error("cannot read", path, errno);
  struct statvfs vfs {};
  if (::statvfs(path.c_str(), &vfs) != 0) return io_error("cannot read", path, errno);
  return FolderPlace{static_cast<std::uint64_t>(st.st_dev), (vfs.f_flag & ST_RDONLY) != 0};
}

void remove_tree(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

} // namespace cudnnctl::platform
