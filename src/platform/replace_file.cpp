// An atomic replace for files other programs read at any moment: temporary dot file beside the target,
// flushed, 0644, renamed over it.
#include "cudnnctl/platform/replace_file.hpp"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/process.hpp"

namespace cudnnctl::platform {

Result<void> replace_file_atomically(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  const fs::path target = path_from_utf8(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const auto folder_text = utf8_of(folder);
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    return fail(ErrorCode::file_not_found, fmt::format("cannot write '{}': its folder '{}' does not exist", path, folder_text),
                "create the folder first (the reader's package usually does), or name a file in a folder that exists", path);
  if (fs::is_directory(fs::symlink_status(target, ec)))
    return fail(ErrorCode::io, fmt::format("cannot write '{}': it is a folder", path), "name a file in that folder instead", path);
  const auto temp = utf8_of(folder / fmt::format(".{}.{}.tmp", utf8_of(target.filename()), unique_id()));
  auto drop_temp = [&](Error e) -> Result<void> {
    std::error_code ignored;
    fs::remove(path_from_utf8(temp), ignored);
    return Unexpected<Error>(std::move(e));
  };
  if (auto written = write_file_durably(temp, std::string(content)); !written) return drop_temp(written.error());
  fs::permissions(path_from_utf8(temp), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read,
                  fs::perm_options::replace, ec);
  if (ec)
    return drop_temp(Error{ErrorCode::io, fmt::format("cannot make '{}' readable by everyone (0644): {}", temp, ec.message()),
                           "check the folder's file system and permissions", temp});
  fs::rename(path_from_utf8(temp), target, ec);
  if (ec)
    return drop_temp(Error{ErrorCode::io, fmt::format("cannot rename '{}' over '{}': {}", temp, path, ec.message()),
                           "check that the folder is writable by this user", path});
  (void)flush_to_disk(folder_text);  // the new name made durable where the system allows it (best effort: the data already is)
  return {};
}

} // namespace cudnnctl::platform
