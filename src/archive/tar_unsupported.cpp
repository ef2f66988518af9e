// The tar half of the readers in a zip-only build (CUDNNCTL_TAR=OFF: the Windows exe, whose cuDNN archives
// are zips; it leaves out libarchive and liblzma). A Linux .tar.xz/.tgz is refused with what to use instead.
#include <fmt/format.h>

#include "cudnnctl/archive/reader.hpp"

namespace cudnnctl {

namespace {

Unexpected<Error> tar_not_built(const std::string& path, ArchiveFormat format) {
  return fail(ErrorCode::incompatible,
              fmt::format("'{}' is a {} archive, and this build of cudnnctl reads zip archives only", path,
                          format == ArchiveFormat::tar_xz ? ".tar.xz" : ".tgz"),
              "NVIDIA's Windows cuDNN archives are zips (cudnn-windows-x86_64-...-archive.zip); a Linux tarball needs the Linux "
              "cudnnctl (on Windows: inside WSL)",
              path);
}

} // namespace

Result<ArchiveListing> list_tar(const std::string& path, ArchiveFormat format, const ReadOptions&) { return tar_not_built(path, format); }

Result<ExtractResult> extract_tar(const std::string& path, ArchiveFormat format, const std::string&, const ExtractOptions&) {
  return tar_not_built(path, format);
}

Result<void> visit_tar_members(const std::string& path, ArchiveFormat format, const std::function<bool(const ArchiveEntry&)>&,
                               const MemberVisit&, const ReadOptions&) {
  return tar_not_built(path, format);
}

} // namespace cudnnctl
