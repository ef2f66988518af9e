#include "cudnnctl/platform/folder_listing.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#include <cerrno>
#include <cstddef>
#include <cstring>

namespace cudnnctl::platform {

namespace {

bool dot_or_dot_dot(const char* name) { return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')); }

FolderEntry::Kind kind_of_dirent_type(unsigned char type) {
  switch (type) {
  case DT_DIR: return FolderEntry::Kind::folder;
  case DT_LNK: return FolderEntry::Kind::link;
  case DT_UNKNOWN: return FolderEntry::Kind::unknown;
  default: return FolderEntry::Kind::other;
  }
}

#if defined(__linux__)
// The kernel's record (linux_dirent64), read straight from getdents64: one system call for a folder of a
// few hundred names, where readdir on fdopendir also costs an fcntl and an fstat per folder.
struct KernelDirent {
  std::uint64_t ino;
  std::int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

bool list_descriptor(int fd, std::vector<FolderEntry>& out) {
  alignas(8) char buffer[32768];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const KernelDirent*>(buffer + at);
      at += d->reclen;
      if (!dot_or_dot_dot(d->name)) out.push_back({d->name, kind_of_dirent_type(d->type)});
    }
  }
}
#else
bool list_descriptor(int fd, std::vector<FolderEntry>& out) {
  const int copy = ::dup(fd);  // closedir closes the descriptor it was given
  if (copy < 0) return false;
  DIR* dir = ::fdopendir(copy);
  if (!dir) {
    ::close(copy);
    return false;
  }
  ::rewinddir(dir);
  errno = 0;
  while (const dirent* d = ::readdir(dir))
    if (!dot_or_dot_dot(d->d_name)) out.push_back({d->d_name, kind_of_dirent_type(d->d_type)});
  const bool ok = errno == 0;
  ::closedir(dir);
  return ok;
}
#endif

} // namespace

std::optional<OpenFolder> OpenFolder::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  return OpenFolder(std::string(), fd);
}

OpenFolder::OpenFolder(OpenFolder&& other) noexcept : m_path(std::move(other.m_path)), m_handle(other.m_handle) { other.m_handle = -1; }

OpenFolder::~OpenFolder() {
  if (m_handle >= 0) ::close(static_cast<int>(m_handle));
}

std::optional<OpenFolder> OpenFolder::open_child(const std::string& name) const {
  // O_NOFOLLOW: a link, even to a folder, fails here (ELOOP), as the walk must not follow it
  const int fd = ::openat(static_cast<int>(m_handle), name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  return OpenFolder(std::string(), fd);
}

bool OpenFolder::list(std::vector<FolderEntry>& out) const { return list_descriptor(static_cast<int>(m_handle), out); }

} // namespace cudnnctl::platform
