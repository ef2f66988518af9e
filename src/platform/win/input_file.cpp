#include "cudnnctl/platform/input_file.hpp"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "wide.hpp"

namespace cudnnctl::platform {

Error missing_file_error(const std::string& path, const std::string& what, const std::string& hint) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(win::long_path(path));
  const std::string subject = what.empty() ? fmt::format("'{}'", path) : fmt::format("{} '{}'", what, path);
  if (fs::is_symlink(fs::symlink_status(p, ec)))
    return Error{ErrorCode::file_not_found, fmt::format("{} is a dangling symbolic link: its target does not exist", subject),
                 "point the link at an existing file, or name the file itself", path};
  return Error{ErrorCode::file_not_found, fmt::format("{} does not exist", subject), hint, path};
}

Result<void> require_regular_file(const std::string& path, const std::string& what) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto st = fs::status(fs::path(win::long_path(path)), ec);
  if (!fs::exists(st)) return Unexpected<Error>(missing_file_error(path, what, "check the path given"));
  if (!fs::is_regular_file(st))
    return fail(ErrorCode::input_invalid, fmt::format("{} '{}' is {}, not a regular file", what, path, fs::is_directory(st) ? "a folder" : "a device or pipe"),
                "name a regular file", path);
  return {};
}

Result<std::string> read_input_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
  log::debug("open for reading {} ({})", path, what);
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p = fs::path(win::long_path(path));
  const auto st = fs::status(p, ec);
  if (!fs::exists(st)) return Unexpected<Error>(missing_file_error(path, what, "check the path given"));
  if (!fs::is_regular_file(st))
    return fail(ErrorCode::input_invalid,
                fmt::format("{} '{}' is {}, not a regular file", what, path, fs::is_directory(st) ? "a folder" : "a device or pipe"),
                "name a regular file; to read from a pipe or a device, save it to a file first", path);
  const auto size = fs::file_size(p, ec);
  if (!ec && size > max_bytes)
    return fail(ErrorCode::input_invalid,
                fmt::format("{} '{}' is {}, more than the {} cudnnctl reads", what, path, human_size(size), human_size(max_bytes)),
                "name the right file: this one is far larger than any such file", path);
  std::ifstream in(p, std::ios::binary);
  if (!in) return fail(ErrorCode::io, fmt::format("cannot read {} '{}'", what, path), "check the file's permissions", path);
  std::string text(static_cast<std::size_t>(max_bytes) + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > max_bytes)
    return fail(ErrorCode::input_invalid, fmt::format("{} '{}' is more than the {} cudnnctl reads", what, path, human_size(max_bytes)),
                "name the right file: this one is far larger than any such file", path);
  return text;
}

} // namespace cudnnctl::platform
