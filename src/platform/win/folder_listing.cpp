#include "cudnnctl/platform/folder_listing.hpp"

#include <filesystem>
#include <system_error>

#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl::platform {

// Windows has no folder descriptor to open children relative to: the folder is kept by its path, and
// each entry's kind is what the directory iterator reports (the walk's behaviour before OpenFolder).
namespace fs = std::filesystem;

std::optional<OpenFolder> OpenFolder::open(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path_from_utf8(path), ec)) return std::nullopt;
  return OpenFolder(path, -1);
}

OpenFolder::OpenFolder(OpenFolder&& other) noexcept : m_path(std::move(other.m_path)), m_handle(other.m_handle) { other.m_handle = -1; }

OpenFolder::~OpenFolder() = default;

std::optional<OpenFolder> OpenFolder::open_child(const std::string& name) const {
  const auto child = path_from_utf8(m_path) / path_from_utf8(name);
  std::error_code ec;
  const auto st = fs::symlink_status(child, ec);  // a link to a folder is not followed
  if (ec || fs::is_symlink(st) || !fs::is_directory(st)) return std::nullopt;
  return OpenFolder(utf8_of(child), -1);
}

bool OpenFolder::list(std::vector<FolderEntry>& out) const {
  std::error_code ec;
  for (fs::directory_iterator it(path_from_utf8(m_path), fs::directory_options::skip_permission_denied, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e2;
    auto kind = FolderEntry::Kind::other;
    if (it->is_symlink(e2)) kind = FolderEntry::Kind::link;
    else if (it->is_directory(e2)) kind = FolderEntry::Kind::folder;
    out.push_back({utf8_of(it->path().filename()), kind});
  }
  return !ec;
}

} // namespace cudnnctl::platform
