// owner/installer_entry.hpp: NVIDIA's Windows cuDNN installer's entry in Windows' Apps list, matched to the copy
// by what the entry says (publisher, name, install location, release), and the owner named as Apps shows it.
#include <catch2/catch.hpp>

#include "cudnnctl/owner/installer_entry.hpp"

using namespace cudnnctl;
using platform::UninstallEntry;

namespace {

const std::string k_root = R"(C:\Program Files\NVIDIA\CUDNN\v9.1)";

UninstallEntry entry(std::string name, std::string version, std::string location, std::string publisher = "NVIDIA Corporation") {
  return UninstallEntry{R"(HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\)" + name, name, std::move(version), std::move(publisher),
                        std::move(location), "\"C:\\Program Files\\NVIDIA\\uninstall.exe\" -s " + name};
}

} // namespace

TEST_CASE("the installer's Apps entry: its install location first, then the release it names", "[installer_entry]") {
  const auto toolkit = entry("NVIDIA CUDA Toolkit 12.4", "12.4", R"(C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4)");
  const auto other_vendor = entry("cuDNN 9.1 helper", "9.1.0", k_root, "Someone Else");
  const auto ten = entry("NVIDIA cuDNN 9.10", "9.10.2.21", "");
  const auto named = entry("NVIDIA cuDNN 9.1", "9.1.0.70", "");
  const auto here = entry("NVIDIA cuDNN", "9.1.0.70", k_root + "\\");
  const auto above = entry("NVIDIA cuDNN 9.1 (all CUDA)", "9.1.0.70", R"(c:/program files/nvidia/CUDNN)");

  // nothing that is NVIDIA's cuDNN: the toolkit's entry, another publisher, another release
  CHECK_FALSE(cudnn_installer_entry({toolkit, other_vendor, ten}, "9.1", k_root));
  CHECK_FALSE(cudnn_installer_entry({}, "9.1", k_root));
  // by name alone, 9.1 and never 9.10
  REQUIRE(cudnn_installer_entry({ten, named}, "9.1", k_root));
  CHECK(cudnn_installer_entry({ten, named}, "9.1", k_root)->display_name == "NVIDIA cuDNN 9.1");
  CHECK(cudnn_installer_entry({ten, named}, "9.10", "")->display_name == "NVIDIA cuDNN 9.10");
  // a folder above the copy that names the release beats the name alone; the copy's own folder beats both
  CHECK(cudnn_installer_entry({named, above}, "9.1", k_root)->display_name == "NVIDIA cuDNN 9.1 (all CUDA)");
  CHECK(cudnn_installer_entry({named, above, here}, "9.1", k_root)->display_name == "NVIDIA cuDNN");
  // an install location elsewhere is another copy, whatever its name says
  CHECK_FALSE(cudnn_installer_entry({entry("NVIDIA cuDNN 9.1", "9.1.0.70", R"(D:\Apps\cuDNN\v9.1)")}, "9.1", k_root));
}

TEST_CASE("the owner as Apps names it, with the installer's own uninstaller", "[installer_entry]") {
  const auto o = windows_installer_owner("9.1", k_root, entry("NVIDIA cuDNN 9.1", "9.1.0.70", k_root));
  CHECK(o.kind == OwnerKind::windows_installer);
  CHECK(describe(o) == "windows-installer: NVIDIA cuDNN 9.1 9.1.0.70");
  CHECK(o.record == R"(HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\NVIDIA cuDNN 9.1)");
  CHECK(removal_fix(o, "x") ==
        "uninstall \"NVIDIA cuDNN 9.1\" in Windows Settings > Apps (or run its uninstaller: \"C:\\Program Files\\NVIDIA\\uninstall.exe\" -s NVIDIA cuDNN 9.1)");
  // without an entry: the folder's release names it, as before
  const auto bare = windows_installer_owner("9.1", k_root);
  CHECK(describe(bare) == "windows-installer: NVIDIA cuDNN 9.1");
  CHECK(removal_fix(bare, "x") == "uninstall \"NVIDIA cuDNN 9.1\" in Windows Settings > Apps (or the installer's uninstaller)");
  CHECK(this_machine_uninstall_entries().empty());  // Linux has no Apps list
  CHECK(windows_installer_owner_here("9.1", k_root).record == k_root);
}
