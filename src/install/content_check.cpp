#include "cudnnctl/install/content_check.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"

namespace cudnnctl {

Result<void> check_content(const ArchiveName& name, const ArchiveListing& listing, const std::string& header_text) {
  const auto& v = name.version;
  auto refuse = [&](std::string why) {
    return fail(ErrorCode::archive_layout, fmt::format("{} disagrees with its name: {}", name.given, why),
                "the file was renamed or re-packed: use the archive exactly as NVIDIA published it", name.given);
  };
  if (header_text.empty()) return refuse("it has no include/cudnn_version.h (nor a cuDNN 7 cudnn.h)");
  const auto header = parse_version_header(header_text);
  if (!header) return refuse("its version header does not define CUDNN_MAJOR, CUDNN_MINOR and CUDNN_PATCHLEVEL");
  const unsigned parts[3] = {header->major, header->minor, header->patch};
  for (int i = 0; i < std::min(v.count, 3); ++i)
    if (parts[i] != v.parts[static_cast<std::size_t>(i)])
      return refuse(fmt::format("its headers say cuDNN {}, the name says {}", header->text(), v.to_string()));
  // the main library must be there: an archive without it would install headers only and remove the
  // toolkit's cuDNN libraries as stale
  const std::string main_lib = name.os == Os::windows ? fmt::format("cudnn64_{}.dll", v.major()) : fmt::format("libcudnn.so.{}", v.major());
  bool has_main = false;
  for (const auto& e : listing.entries) {
    if (e.type == EntryType::directory) continue;
    const std::string file(base_name(e.name));
    const auto lower = to_lower_ascii(file);
    if (lower == main_lib || (name.os != Os::windows && lower.starts_with(main_lib + "."))) has_main = true;
    const auto lib = classify_cudnn_file(file, Os::linux_os) ? classify_cudnn_file(file, Os::linux_os) : classify_cudnn_file(file, Os::windows);
    if (lib && lib->major != v.major())
      return refuse(fmt::format("'{}' is a cuDNN {} library in a cuDNN {} archive", e.name, lib->major, v.major()));
  }
  if (!has_main) return refuse(fmt::format("it has no {} (cuDNN's main library)", main_lib));
  return {};
}

} // namespace cudnnctl
