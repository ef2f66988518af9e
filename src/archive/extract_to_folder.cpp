#include "cudnnctl/archive/extract_to_folder.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

std::string staging_folder_for(const std::string& folder) { return folder + ".cudnnctl-staging-" + platform::unique_id(); }

Result<FolderExtraction> extract_to_new_folder(const std::string& archive, ArchiveFormat format, const std::vector<ExpectedHash>& expected,
                                               bool allow_unverified, const std::string& folder, const ExtractOptions& options) {
  std::error_code ec;
  // the folder it goes in is resolved through links (a linked parent): staging and the extraction
  // below it never follow one
  fs::path dest = fs::absolute(path_from_utf8(folder), ec).lexically_normal();
  if (dest.filename().empty()) dest = dest.parent_path();
  if (const auto parent = fs::weakly_canonical(dest.parent_path(), ec); !ec) dest = parent / dest.filename();
  if (fs::exists(fs::symlink_status(dest, ec)) && !(fs::is_directory(dest, ec) && fs::is_empty(dest, ec)))
    return fail(ErrorCode::io, fmt::format("'{}' already exists and is not an empty folder", folder),
                "choose a new folder with --to; cudnnctl never extracts over existing files", folder);
  const std::string staging = staging_folder_for(utf8_of(dest));
  log::debug("extract: staging {} for {}", staging, utf8_of(dest));
  platform::remove_tree(staging);
  CUDNNCTL_TRY(platform::make_directories(staging));

  auto done = verify_and_extract(archive, format, expected, allow_unverified, staging, options);
  if (!done) {
    platform::remove_tree(staging);  // verify_and_extract drops it too; an early refusal may not have
    return Unexpected<Error>(done.error());
  }
  if (fs::exists(dest, ec)) fs::remove(dest, ec);  // the empty folder the caller named
  fs::rename(path_from_utf8(staging), dest, ec);
  if (ec) {
    platform::remove_tree(staging);
    return fail(ErrorCode::io, fmt::format("cannot move the extracted files into '{}': {}", folder, ec.message()), "", folder);
  }
  log::info("extract: {} files moved into {}", done->extract.files, utf8_of(dest));
  return FolderExtraction{utf8_of(dest), std::move(*done)};
}

} // namespace cudnnctl
