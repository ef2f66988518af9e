// An owner in words, in JSON, and the fix its own tool gives (docs/owners.md).
#include "cudnnctl/owner/owner.hpp"

#include <nlohmann/json.hpp>

namespace cudnnctl {

std::string_view to_string(OwnerKind k) {
  switch (k) {
    case OwnerKind::none: return "none";
    case OwnerKind::dpkg: return "dpkg";
    case OwnerKind::nvidia_cudnn: return "nvidia-cudnn";
    case OwnerKind::rpm: return "rpm";
    case OwnerKind::pacman: return "pacman";
    case OwnerKind::conda: return "conda";
    case OwnerKind::pip: return "pip";
    case OwnerKind::cudnnctl: return "cudnnctl";
    case OwnerKind::windows_installer: return "windows-installer";
  }
  return "none";
}

Owner windows_installer_owner(const std::string& release, const std::string& root) {
  return Owner{OwnerKind::windows_installer, "NVIDIA cuDNN " + release, release, false, root};
}

std::string describe(const Owner& o) {
  if (!o.owned()) return "not owned by any package manager";
  std::string s = std::string(to_string(o.kind)) + ": " + o.package;
  // (the installer's name "NVIDIA cuDNN 9.1" holds its release; its Apps entry's version, 9.1.0.70, is said)
  if (!o.version.empty() && !(o.kind == OwnerKind::windows_installer && o.package.ends_with(o.version))) s += " " + o.version;
  if (o.held) s += " (held)";
  return s;
}

std::string removal_fix(const Owner& o, const std::string& path) {
  switch (o.kind) {
    case OwnerKind::dpkg: return "sudo apt remove " + o.package + (o.held ? " (held: sudo apt-mark unhold " + o.package + " first)" : "");
    case OwnerKind::nvidia_cudnn: return "sudo apt purge nvidia-cudnn (its prerm deletes the files its filelist names)";
    case OwnerKind::rpm: return "sudo dnf remove " + o.package;
    case OwnerKind::pacman: return "sudo pacman -R " + o.package;
    case OwnerKind::conda: return "conda remove " + o.package;
    case OwnerKind::pip: return "pip uninstall " + o.package;
    case OwnerKind::cudnnctl: {
      const auto at = o.record.rfind("/.cudnnctl/");
      return "cudnnctl uninstall --cuda-path " + (at == std::string::npos ? o.record : o.record.substr(0, at));
    }
    case OwnerKind::windows_installer:
      return "uninstall \"" + o.package + "\" in Windows Settings > Apps (or " +
             (o.uninstaller.empty() ? std::string("the installer's uninstaller") : "run its uninstaller: " + o.uninstaller) + ")";
    case OwnerKind::none: break;
  }
  return "delete " + path + " (no package manager owns it)";
}

std::string pin_fix(const Owner& o) {
  switch (o.kind) {
    case OwnerKind::dpkg: return "sudo apt-mark hold " + o.package;
    case OwnerKind::rpm: return "sudo dnf versionlock add " + o.package;
    case OwnerKind::pacman: return "IgnorePkg = " + o.package + " in /etc/pacman.conf";
    case OwnerKind::conda: return "conda config --add pinned_packages " + o.package + "=" + o.version;
    case OwnerKind::pip: return "pip install " + o.package + "==" + o.version;
    default: return {};
  }
}

nlohmann::json owner_json(const Owner& o) {
  nlohmann::json j;
  j["kind"] = std::string(to_string(o.kind));
  j["package"] = o.package.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.package);
  j["version"] = o.version.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.version);
  j["held"] = o.held;
  return j;
}

} // namespace cudnnctl
