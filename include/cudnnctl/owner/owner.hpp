#pragma once
// Who owns a cuDNN file: a package manager (dpkg, rpm, pacman, conda, pip), Debian's nvidia-cudnn
// downloader, cudnnctl's own receipt, NVIDIA's Windows installer, or nobody. One value for every command
// that names a copy (doctor, path, bundle list, trace, explain --here), one JSON object (`owner`) and the
// fix that owner's own tool gives (docs/owners.md).
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace cudnnctl {

enum class OwnerKind {
  none,               // not owned by any package manager (a tarball or a manual copy)
  dpkg,               // /var/lib/dpkg/info/<package>.list names it
  nvidia_cudnn,       // Debian's nvidia-cudnn downloader: /var/lib/nvidia-cudnn/filelist.txt names it
  rpm,                // the rpm database names it (rpm -qf, or the rpmdb.sqlite headers)
  pacman,             // /var/lib/pacman/local/<name>-<version>/files names it
  conda,              // <prefix>/conda-meta/<package>.json names it
  pip,                // <site>/<dist>.dist-info/RECORD names it
  cudnnctl,           // cudnnctl's receipt in <toolkit>/.cudnnctl names it
  windows_installer,  // under NVIDIA's cuDNN installer folder (Program Files\NVIDIA\CUDNN\v9.x)
};
std::string_view to_string(OwnerKind k);

struct Owner {
  OwnerKind kind = OwnerKind::none;
  std::string package;  // "libcudnn9-cuda-13", "nvidia-cudnn-cu12", "cuDNN 9.1" (installer); empty for none
  std::string version;  // the package's version as its manager writes it ("9.19.0.56-1"); may be empty
  bool held = false;    // dpkg "hold" (apt-mark hold): the user pinned it on purpose
  std::string record;   // the file that says so (/var/lib/dpkg/info/x.list; the Apps list's registry key), for messages
  std::string uninstaller = {};  // the owner's own uninstall command, where it names one (Windows' Apps entry)
  bool owned() const { return kind != OwnerKind::none; }
  /// True for the owners whose files cudnnctl must never write or remove (every owner but cudnnctl and none).
  bool foreign() const { return kind != OwnerKind::none && kind != OwnerKind::cudnnctl; }
};

/// A copy under NVIDIA's Windows installer's folder: its release folder ("9.1") names it; `root` is the
/// ...\NVIDIA\CUDNN\v9.1 folder, when known.
Owner windows_installer_owner(const std::string& release, const std::string& root = {});

/// "dpkg: libcudnn9-cuda-13 9.19.0.56-1 (held)", "not owned by any package manager".
std::string describe(const Owner& o);

/// The command that removes the copy the way its owner does ("sudo apt remove libcudnn9-cuda-13",
/// "pip uninstall nvidia-cudnn-cu12", "cudnnctl uninstall --cuda-path T"); for nobody's copy: "delete <path>".
std::string removal_fix(const Owner& o, const std::string& path);

/// The command that keeps the package where it is (apt-mark hold, dnf versionlock, pacman's IgnorePkg);
/// empty for owners without one.
std::string pin_fix(const Owner& o);

/// {"kind", "package", "version", "held"}: package and version null when empty (docs/schemas/common.schema.json#/$defs/owner).
nlohmann::json owner_json(const Owner& o);

} // namespace cudnnctl
