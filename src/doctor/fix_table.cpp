// Each check's fix as data: the automatic ones below (the cudnnctl operation that repairs the finding), every
// other check's fix printed as the check words it. `doctor --list-checks` and docs/doctor.md show the kind.
#include "cudnnctl/doctor/fix.hpp"

#include <algorithm>

namespace cudnnctl {

std::string_view to_string(FixOperation op) {
  switch (op) {
    case FixOperation::recover_toolkit:
      return "recover";
    case FixOperation::install_release:
      return "install";
    case FixOperation::repair_install:
      return "repair";
    case FixOperation::unbundle:
      return "unbundle";
    case FixOperation::loader_path:
      return "path";
  }
  return "recover";
}

const std::vector<FixRule>& fix_rules() {
  static const std::vector<FixRule> rules{
      {"files.interrupted", FixOperation::recover_toolkit,
       "the recovery `cudnnctl install` and `uninstall` run first, on {root}: the journal rolled back (or its clean-up finished), "
       "dead runs' staging folders removed",
       "an interrupted transaction's journal, and staging folders left by a run that died"},
      {"files.cudnn", FixOperation::install_release, "cudnnctl install latest --mirror URL --cuda-path {root} --no-path",
       "no cuDNN in the toolkit, when a mirror is given (doctor --fix --mirror URL): the newest release the catalog has for the "
       "toolkit's CUDA major that fits this machine, as `install latest` chooses it, downloaded from the mirror and verified"},
      {"files.receipt", FixOperation::repair_install, "cudnnctl install {archive} --cuda-path {root}",
       "installed files that differ from the receipt (emptied by antivirus, edited), when the receipt's archive is in the download "
       "cache: only the files that differ are placed again"},
      {"bundles.shadow", FixOperation::unbundle, "cudnnctl bundle unbundle {dir} --cuda-path {root}",
       "a framework bundle of the toolkit's cuDNN major, built for the toolkit's CUDA major, set aside (reversible: bundle restore)"},
      {"files.search_path", FixOperation::loader_path, "cudnnctl path --cuda-path {root} --apply",
       "Linux, as root: the toolkit's library folder not first in the ld.so cache (not on the search path, or another copy of "
       "the ld.so cache or a default folder before it) put first through ld.so.conf.d; an LD_LIBRARY_PATH entry before it "
       "stays the shell's to change. Windows: the toolkit's bin folder put first in the registry PATH of --scope user (default) or "
       "machine, with CUDNN_PATH, and the check run again with the PATH a program started now gets"},
      {"files.windows_installer", FixOperation::loader_path, "cudnnctl path --cuda-path {root} --apply",
       "Windows, a toolkit without cuDNN: the folder of NVIDIA's cuDNN installer that fits the toolkit's CUDA version "
       "(Program Files\\NVIDIA\\CUDNN\\v9.x\\bin\\<cuda>) put first in the registry PATH of --scope user (default) or machine, "
       "as `path --apply` does for such a toolkit"},
  };
  return rules;
}

const FixRule* automatic_fix(std::string_view check_id) {
  const auto& rules = fix_rules();
  const auto it = std::find_if(rules.begin(), rules.end(), [&](const FixRule& r) { return r.check == check_id; });
  return it == rules.end() ? nullptr : &*it;
}

}  // namespace cudnnctl
