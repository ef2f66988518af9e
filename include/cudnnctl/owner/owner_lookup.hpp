#pragma once
// "Who owns this file?", answered from the package managers' own records under a root ("/" for this machine,
// a mounted tree or a test's private root otherwise), without running a package manager's front end and
// without taking its lock: dpkg (info/*.list and status, with the hold), Debian's nvidia-cudnn filelist, rpm
// (`rpm -qf` against the root's database where the program exists, else its rpmdb.sqlite read directly,
// read-only: rpm_database.hpp), pacman (local/*/files and desc), conda
// (conda-meta), pip (RECORD), cudnnctl's receipt, NVIDIA's Windows installer folder; else nobody.
// Every record is read bounded and as untrusted text (owner_records.hpp); one that cannot be read counts as
// saying nothing. The databases are read once per lookup object, on the first question.
#include <memory>
#include <optional>
#include <string>

#include "cudnnctl/owner/owner.hpp"

namespace cudnnctl {

struct OwnerIndex;

class OwnerLookup {
public:
  /// `root`: where the target system's "/" is ("/" here). Paths asked are host paths (under `root`), or the
  /// target's own absolute paths.
  explicit OwnerLookup(std::string root = "/");
  ~OwnerLookup();
  OwnerLookup(OwnerLookup&&) noexcept;
  OwnerLookup& operator=(OwnerLookup&&) noexcept;

  /// The owner of `path` (a file or a link; merged-/usr aliases /lib <-> /usr/lib and the canonical folder
  /// are looked up too). The first of dpkg, nvidia-cudnn, rpm, pacman, conda, pip, cudnnctl, Windows installer.
  Owner owner_of(const std::string& path);
  const std::string& root() const { return m_root; }

private:
  std::string m_root;
  std::unique_ptr<OwnerIndex> m_index;
};

/// The root the package managers' records are read under: CUDNNCTL_PACKAGE_ROOT when set (a mounted Linux
/// tree, a test's private root), else "/".
std::string package_root();

/// The path as the target system names it: `host_path` without `root` ("/mnt/r/usr/lib/x" -> "/usr/lib/x").
std::string target_path(const std::string& root, const std::string& host_path);

/// The paths a loader and a package manager may each call one file by: itself, its /lib <-> /usr/lib alias.
std::vector<std::string> merged_usr_aliases(const std::string& target);

/// Why a folder (a target path) belongs to the OS's package manager as a whole and is no toolkit cudnnctl may
/// install into: "/usr", "/", a folder under /usr but not /usr/local (Debian's nvidia-cuda-toolkit lives in
/// /usr/lib/nvidia-cuda-toolkit, its libraries in /usr/lib/<triplet>), /lib*, /bin, /sbin.
/// nullopt for a folder of its own (/usr/local/cuda-13.0, /opt/cuda, C:\...).
std::optional<std::string> system_territory(const std::string& target_folder);

} // namespace cudnnctl
