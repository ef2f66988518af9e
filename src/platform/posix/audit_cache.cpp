#include "cudnnctl/platform/audit_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "cudnnctl/base/sha256.hpp"

#if CUDNNCTL_EMBED_AUDIT
namespace cudnnctl::embedded {
std::string_view audit_library();  // the module's bytes (cmake/embed_file.cmake, CUDNNCTL_PORTABLE)
}
#endif

namespace cudnnctl::platform {

namespace {

std::string audit_digest(std::string_view bytes) {
  Sha256 h;
  h.update(bytes.data(), bytes.size());
  return h.finish();
}

// The folder must be ours alone: a folder (not a link), owned by this user, no access for group or others.
Result<void> private_folder(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    return fail(ErrorCode::io, fmt::format("cannot create {}: {}", dir, std::strerror(errno)),
                "set CUDNNCTL_AUDIT_LIB to an installed libcudnnctl_audit.so, or XDG_CACHE_HOME to a writable folder", dir);
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid())
    return fail(ErrorCode::io, fmt::format("{} is not a folder owned by this user: the audit module is not written there", dir),
                "remove it, or set XDG_CACHE_HOME to a folder of your own", dir);
  if ((st.st_mode & 077) != 0 && ::chmod(dir.c_str(), 0700) != 0)
    return fail(ErrorCode::io, fmt::format("cannot close {} to other users: {}", dir, std::strerror(errno)), "", dir);
  return {};
}

// An existing copy counts only when it is a plain file of ours that others cannot write and its bytes hash right.
bool trusted_copy(const std::string& path, const std::string& digest) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::getuid() || (st.st_mode & 022) != 0)
    return false;
  std::ifstream in(path, std::ios::binary);
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return in.good() || in.eof() ? audit_digest(content) == digest : false;
}

Result<void> write_new_copy(std::string_view bytes, const std::string& dir, const std::string& path) {
  std::string tmp = dir + "/.audit-XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return fail(ErrorCode::io, fmt::format("cannot write into {}: {}", dir, std::strerror(errno)), "", dir);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  const bool ok = done == bytes.size() && ::fchmod(fd, 0500) == 0;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return fail(ErrorCode::io, fmt::format("cannot write the audit module {}: {}", path, std::strerror(e)), "", path);
  }
  return {};
}

} // namespace

bool has_embedded_audit_library() {
#if CUDNNCTL_EMBED_AUDIT
  return !embedded::audit_library().empty();
#else
  return false;
#endif
}

std::string audit_cache_dir() {
  const std::string uid = std::to_string(::getuid());
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') return fmt::format("{}/cudnnctl/audit-{}", x, uid);
  if (const char* h = std::getenv("HOME"); h && *h == '/') return fmt::format("{}/.cache/cudnnctl/audit-{}", h, uid);
  const char* t = std::getenv("TMPDIR");
  return fmt::format("{}/cudnnctl-audit-{}", t && *t == '/' ? t : "/tmp", uid);
}

Result<std::string> write_audit_library(std::string_view bytes, const std::string& dir) {
  // the parents (e.g. ~/.cache/cudnnctl) may be missing; only the last folder needs to be private
  const auto slash = dir.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    std::string parent = dir.substr(0, slash);
    for (std::size_t at = 1; at <= parent.size(); ++at)
      if (at == parent.size() || parent[at] == '/') ::mkdir(parent.substr(0, at).c_str(), 0755);
  }
  CUDNNCTL_TRY(private_folder(dir));
  const std::string digest = audit_digest(bytes);
  const std::string path = fmt::format("{}/libcudnnctl_audit-{}.so", dir, digest.substr(0, 16));
  if (trusted_copy(path, digest)) return path;
  CUDNNCTL_TRY(write_new_copy(bytes, dir, path));
  if (!trusted_copy(path, digest))
    return fail(ErrorCode::io, fmt::format("the audit module written to {} does not read back as written", path), "", path);
  return path;
}

Result<std::string> write_embedded_audit_library() {
#if CUDNNCTL_EMBED_AUDIT
  return write_audit_library(embedded::audit_library(), audit_cache_dir());
#else
  return fail(ErrorCode::file_not_found, "this cudnnctl carries no audit module", "");
#endif
}

} // namespace cudnnctl::platform
