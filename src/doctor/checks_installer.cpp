// Layer 2: NVIDIA's Windows cuDNN installer's copies (<ProgramFiles>\NVIDIA\CUDNN\v9.x\bin\<cuda>): which CUDA
// folder fits the toolkit, whether that folder is on PATH (the installer puts ...\v9.x\bin there, a folder
// without DLLs), and the fix: that folder on PATH, or the same release installed into the toolkit.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cudnnctl/owner/installer_entry.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/contract/layout.hpp"
#include "cudnnctl/contract/windows_installer.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/env/display_path.hpp"
#include "cudnnctl/env/loader_path.hpp"
#include "cudnnctl/owner/owner.hpp"

namespace cudnnctl {

namespace {

// "9.1.0.70" from the main DLL's version resource, else the release folder's "9.1"
std::string copy_version(const InstallerCopy& c) { return !c.version.empty() && c.version.starts_with(c.release + ".") ? c.version : c.release; }

// The zip of the same release for the toolkit's machine and CUDA major, as NVIDIA names it.
std::string same_release_archive(const DoctorFacts& f, const InstallerCopy& c) {
  const auto* t = f.tk();
  const auto arch = windows_machine_of_dll_dir(t->dll_dir).arch;
  const auto version = split(c.version, '.').size() == 4 && c.version.starts_with(c.release + ".") ? c.version : c.release + ".<patch>.<build>";
  const auto major = c.cuda.substr(0, c.cuda.find('.'));
  return fmt::format("cudnn-{}-{}_cuda{}-archive.zip", archive_platform_name(Os::windows, arch), version, major);
}

std::string toolkit_cuda(const DoctorFacts& f) { return f.tk()->version.empty() ? f.tk()->major() : f.tk()->version; }

void fill_path_fix(const DoctorFacts& f, const InstallerCopy& c, Check& out) {
  const auto* t = f.tk();
  const auto bin = c.dir.substr(0, c.dir.rfind("\\bin\\") + 4);
  // on this machine `path --apply` does it (for a toolkit without cuDNN it puts the fitting installer folder first)
  const auto by_command = f.offline ? std::string()
                                    : fmt::format("`cudnnctl path --cuda-path {} --apply --scope user` does it (so does doctor --fix), or ",
                                                  command_word(t->root));
  out.fix = fmt::format(
      "add {} to {} PATH: {}by hand in Settings > System > About > Advanced system settings > Environment Variables (the "
      "installer's own entry {} holds no DLLs). Programs started afterwards find cuDNN there. Or install the same release into "
      "the toolkit, where build tools look too: `cudnnctl install {} --cuda-path {}`, then `cudnnctl path --apply "
      "--scope user` puts the toolkit's {} first on PATH",
      c.dir, f.offline ? "that machine's" : "the user's", by_command, bin, same_release_archive(f, c),
      f.offline ? std::string("\"%CUDA_PATH%\"") : command_word(t->root), windows_toolkit_path_here(t->runtime_dir()));
}

}  // namespace

const InstallerCopy* installer_copy_for_toolkit(const DoctorFacts& f) {
  const auto* t = f.tk();
  if (!t || f.model != LoaderModel::windows_pe) return nullptr;
  return fitting_installer_copy(f.installer.copies, toolkit_cuda(f));
}

void check_files_windows_installer(const DoctorFacts& f, Checks& out) {
  const auto* t = f.tk();
  if (!t || f.model != LoaderModel::windows_pe || f.installer.copies.empty()) return;
  std::vector<std::string> all;
  for (const auto& c : f.installer.copies) all.push_back(fmt::format("{} (cuDNN {} for CUDA {})", c.dir, copy_version(c), c.cuda));
  const std::string bins = f.installer.bin_on_path.empty() ? std::string()
                                                           : fmt::format("; PATH holds the installer's own entry {}, a folder without DLLs",
                                                                         fmt::join(f.installer.bin_on_path, ", "));
  const auto* fit = installer_copy_for_toolkit(f);
  const bool toolkit_has = f.major.has_value();
  if (!fit) {
    auto c = make_check("files.windows_installer", 2, toolkit_has ? CheckStatus::pass : CheckStatus::fail,
                        fmt::format("NVIDIA's cuDNN installer's copies ({}) are for other CUDA majors than the CUDA {} toolkit{}{}",
                                    fmt::join(all, "; "), toolkit_cuda(f), toolkit_has ? ", which has cuDNN of its own" : "", bins),
                        toolkit_has ? std::string_view{} : std::string_view{"files.windows_installer.no-fit"});
    if (!toolkit_has)
      c.fix = fmt::format(
          "run NVIDIA's cuDNN installer again and pick CUDA {} as well, or install cuDNN into the toolkit: `cudnnctl install "
          "cudnn-{}-<version>_cuda{}-archive.zip --cuda-path {}`",
          t->major(), archive_platform_name(Os::windows, windows_machine_of_dll_dir(t->dll_dir).arch), t->major(),
          f.offline ? std::string("\"%CUDA_PATH%\"") : command_word(t->root));
    out.push_back(std::move(c));
    return;
  }
  const auto what = fmt::format("cuDNN {} for CUDA {} in {} ({})", copy_version(*fit), fit->cuda, fit->dir, describe(windows_installer_owner_here(fit->release)));
  if (fit->on_path) {
    out.push_back(
        make_check("files.windows_installer", 2, CheckStatus::pass,
                   fmt::format("NVIDIA's installer's {}, the folder that fits the CUDA {} toolkit, is on PATH: programs started with "
                               "this PATH find it{}",
                               what, toolkit_cuda(f), toolkit_has ? " (the toolkit's own cuDNN comes first where a program adds its bin)" : "")));
    return;
  }
  if (toolkit_has) {
    out.push_back(make_check("files.windows_installer", 2, CheckStatus::pass,
                             fmt::format("NVIDIA's installer's {} is not on PATH and unused: programs load the toolkit's own cuDNN{}", what, bins)));
    return;
  }
  auto c = make_check("files.windows_installer", 2, CheckStatus::fail,
                      fmt::format("NVIDIA's installer put {}, the folder that fits the CUDA {} toolkit, but that folder is not on PATH{}: "
                                  "programs find no {}",
                                  what, toolkit_cuda(f), bins, fit->dlls.empty() ? std::string("cuDNN DLL") : fit->dlls.front()),
                      "files.windows_installer.path");
  fill_path_fix(f, *fit, c);
  out.push_back(std::move(c));
}

const std::vector<CheckSpec>& installer_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"files.windows_installer", 2, need_toolkit, &check_files_windows_installer,
       "Windows: NVIDIA's cuDNN installer's copies (Program Files\\NVIDIA\\CUDNN\\v9.x\\bin\\<cuda>, also on a mounted Windows tree): the "
       "CUDA folder that fits the toolkit, whether it is on PATH (the installer adds ...\\v9.x\\bin, a folder without DLLs), and the fix",
       ""},
  };
  return rows;
}

}  // namespace cudnnctl
