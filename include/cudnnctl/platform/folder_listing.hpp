#pragma once
// Listing folders for a walk down a tree (the bundle scan's thousands of site-packages folders): a folder is
// opened once and its subfolders are opened by name relative to it, and each entry's kind comes from the
// listing itself, with no stat of each entry and no path resolved from the root again.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cudnnctl::platform {

/// One name in a folder and what the listing says it is (`unknown` where the file system does not say:
/// then only opening it as a folder tells).
struct FolderEntry {
  enum class Kind : std::uint8_t { folder, link, other, unknown };
  std::string name;
  Kind kind = Kind::unknown;
};

/// A folder opened for listing and for opening its subfolders. Move-only; closed when destroyed.
/// POSIX: the folder's descriptor (openat, getdents64 on Linux); Windows: its path.
class OpenFolder {
public:
  /// Opens the folder at `path` (a link to a folder is followed, as for the start of a walk); nullopt when
  /// it is not a folder or cannot be opened.
  static std::optional<OpenFolder> open(const std::string& path);
  OpenFolder(OpenFolder&& other) noexcept;
  OpenFolder& operator=(OpenFolder&&) = delete;
  ~OpenFolder();
  /// The subfolder `name` of this folder; nullopt when it is not a folder, is a link (never followed), or
  /// cannot be opened.
  std::optional<OpenFolder> open_child(const std::string& name) const;
  /// Appends this folder's entries to `out` ("." and ".." left out), in the listing's order. False when the
  /// listing failed part-way (what was read before stays in `out`).
  bool list(std::vector<FolderEntry>& out) const;

private:
  OpenFolder(std::string path, std::intptr_t handle) : m_path(std::move(path)), m_handle(handle) {}
  std::string m_path;  // Windows lists and opens by path; empty on POSIX (the descriptor is enough)
  std::intptr_t m_handle = -1;
};

} // namespace cudnnctl::platform
