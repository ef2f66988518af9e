#include "cudnnctl/platform/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"

namespace cudnnctl::platform {

namespace {
std::string kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISFIFO(m)) return "a FIFO (named pipe)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}
} // namespace

Error missing_file_error(const std::string& path, const std::string& what, const std::string& hint) {
  const std::string subject = what.empty() ? fmt::format("'{}'", path) : fmt::format("{} '{}'", what, path);
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    std::string target(4096, '\0');
    const auto n = ::readlink(path.c_str(), target.data(), target.size());
    target.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return Error{ErrorCode::file_not_found, fmt::format("{} is a dangling symbolic link: its target '{}' does not exist", subject, target),
                 "point the link at an existing file, or name the file itself", path};
  }
  return Error{ErrorCode::file_not_found, fmt::format("{} does not exist", subject), hint, path};
}

Result<void> require_regular_file(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR) return Unexpected<Error>(missing_file_error(path, what, "check the path given"));
    return fail(ErrorCode::io, fmt::format("cannot read {} '{}': {}", what, path, std::strerror(e)), "check the path given", path);
  }
  if (!S_ISREG(st.st_mode))
    return fail(ErrorCode::input_invalid, fmt::format("{} '{}' is {}, not a regular file", what, path, kind_of(st.st_mode)),
                "name a regular file", path);
  return {};
}

Result<std::string> read_input_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
  log::debug("open for reading {} ({})", path, what);
  // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting; fstat then refuses it
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR) return Unexpected<Error>(missing_file_error(path, what, "check the path given"));
    if (e == EACCES || e == EPERM)
      return fail(ErrorCode::io, fmt::format("cannot read {} '{}': {}", what, path, std::strerror(e)),
                  "check the file's owner and permissions", path);
    return fail(ErrorCode::io, fmt::format("cannot read {} '{}': {}", what, path, std::strerror(e)), "check the path given", path);
  }
  struct Closer {
    int handle;
    ~Closer() { ::close(handle); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    return fail(ErrorCode::io, fmt::format("cannot read {} '{}': {}", what, path, std::strerror(errno)), "", path);
  if (!S_ISREG(st.st_mode))
    return fail(ErrorCode::input_invalid, fmt::format("{} '{}' is {}, not a regular file", what, path, kind_of(st.st_mode)),
                "name a regular file; to read from a pipe or a device, save it to a file first", path);
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    return fail(ErrorCode::input_invalid,
                fmt::format("{} '{}' is {}, more than the {} cudnnctl reads", what, path,
                            human_size(static_cast<std::uint64_t>(st.st_size)), human_size(max_bytes)),
                "name the right file: this one is far larger than any such file", path);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  text.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      // the file may have grown since fstat: read on, but never past the cap
      if (text.size() > max_bytes) break;
      text.resize(std::min<std::uint64_t>(text.size() + 65536, max_bytes + 1));
    }
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(ErrorCode::io, fmt::format("cannot read {} '{}': {}", what, path, std::strerror(errno)), "", path);
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > max_bytes)
    return fail(ErrorCode::input_invalid, fmt::format("{} '{}' is more than the {} cudnnctl reads", what, path, human_size(max_bytes)),
                "name the right file: this one is far larger than any such file", path);
  text.resize(got);
  return text;
}

} // namespace cudnnctl::platform
