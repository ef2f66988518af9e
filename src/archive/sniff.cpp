#include "cudnnctl/archive/sniff.hpp"

#include <fstream>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

std::string_view to_string(FileKind k) {
  switch (k) {
  case FileKind::zip: return "zip";
  case FileKind::xz: return "xz";
  case FileKind::gzip: return "gzip";
  case FileKind::html: return "html";
  case FileKind::json_or_xml: return "json/xml";
  case FileKind::text: return "text";
  case FileKind::empty: return "empty";
  case FileKind::unknown: return "unknown";
  }
  return "unknown";
}

FileKind sniff_bytes(std::string_view head) {
  if (head.empty()) return FileKind::empty;
  if (head.size() >= 4 && head[0] == 'P' && head[1] == 'K' &&
      ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6) || (head[2] == 7 && head[3] == 8)))
    return FileKind::zip;
  if (head.size() >= 6 && head.substr(0, 6) == std::string_view("\xFD" "7zXZ\0", 6)) return FileKind::xz;
  if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1F && static_cast<unsigned char>(head[1]) == 0x8B)
    return FileKind::gzip;
  std::size_t i = 0;
  if (head.size() >= 3 && head.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // UTF-8 BOM
  while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')) ++i;
  const auto lower = to_lower_ascii(head.substr(i, 512));
  if (lower.starts_with("<!doctype html") || lower.starts_with("<html") || lower.find("<html") != std::string::npos ||
      lower.find("<head") != std::string::npos)
    return FileKind::html;
  if (lower.starts_with("<?xml") || lower.starts_with("{") || lower.starts_with("[")) return FileKind::json_or_xml;
  bool printable = true;
  for (std::size_t k = i; k < std::min<std::size_t>(head.size(), 512); ++k) {
    const auto c = static_cast<unsigned char>(head[k]);
    if (c < 0x09 || (c > 0x0D && c < 0x20)) printable = false;
  }
  return printable ? FileKind::text : FileKind::unknown;
}

Result<void> check_is_archive(const std::string& path, ArchiveFormat expected) {
  CUDNNCTL_TRY_ASSIGN(auto size, platform::file_size(path));
  std::ifstream in(path_from_utf8(path), std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const auto kind = sniff_bytes(head);
  const FileKind wanted = expected == ArchiveFormat::zip ? FileKind::zip : expected == ArchiveFormat::tar_xz ? FileKind::xz : FileKind::gzip;
  if (kind == wanted) return {};
  const std::string again = "download the archive again from NVIDIA (developer.download.nvidia.com) and check the new file";
  switch (kind) {
  case FileKind::empty:
    return fail(ErrorCode::archive_not_archive, fmt::format("'{}' is empty (0 bytes): the download did not happen or was cut off at once", path),
                again, path);
  case FileKind::html:
    return fail(ErrorCode::archive_not_archive,
                fmt::format("'{}' is a web page ({} bytes of HTML), not an archive: a login, error or redirect page was saved under the "
                            "archive's name",
                            path, size),
                "download with a browser session that is logged in to NVIDIA's developer site, or use the direct redistrib URL "
                "(cudnnctl inspect NAME shows it)",
                path);
  case FileKind::json_or_xml:
  case FileKind::text:
    return fail(ErrorCode::archive_not_archive,
                fmt::format("'{}' is a text file ({} bytes), not an archive; it begins: '{}'", path, size,
                            head.substr(0, std::min<std::size_t>(head.find('\n'), 80))),
                "a server sent an error message instead of the file: " + again, path);
  default: break;
  }
  if (kind == FileKind::zip || kind == FileKind::xz || kind == FileKind::gzip)
    return fail(ErrorCode::archive_not_archive,
                fmt::format("'{}' is a {} file, but its name says {}", path, to_string(kind), to_string(expected)),
                "the file was renamed or repacked: use the archive exactly as NVIDIA published it", path);
  return fail(ErrorCode::archive_not_archive,
              fmt::format("'{}' is not a {} archive (its first bytes match no archive format; {} bytes)", path,
                          to_string(expected), size),
              again, path);
}

} // namespace cudnnctl
