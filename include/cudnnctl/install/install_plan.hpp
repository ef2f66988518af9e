#pragma once
// The install plan, as a pure function: plan = f(archive listing, archive name, toolkit, support rows,
// what the target folders hold now). No disk access; the transaction (a later layer) applies it.
#include <cstdint>
#include <string>
#include <vector>

#include "cudnnctl/archive/listing.hpp"
#include "cudnnctl/base/error.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/env/toolkit.hpp"

namespace cudnnctl {

enum class StepKind {
  copy_file,     // a staged file moves to `target`
  make_symlink,  // `target` becomes a link to `link_target` (Linux symlink chains stay chains)
  remove_stale,  // a cuDNN file of another version in a target folder: backed up, then removed
};
std::string_view to_string(StepKind k);

struct PlanStep {
  StepKind kind = StepKind::copy_file;
  std::string source;       // archive member (normalised path) for copy_file / make_symlink
  std::string target;       // relative to the toolkit root, '/'-separated
  std::string link_target;  // make_symlink only
  std::uint64_t size = 0;
  bool replaces = false;    // an existing file at `target` is backed up and replaced
};

struct InstallPlan {
  std::vector<PlanStep> steps;
  std::string state_dir;    // the toolkit's cudnnctl folder (receipt, journal, LICENSE), relative to the root
  std::vector<std::string> warnings;  // e.g. compatibility checks skipped with --force
};

struct PlanInputs {
  const ArchiveListing& listing;         // names normalised (safety checked)
  const ArchiveName& name;
  const Toolkit& toolkit;
  const std::vector<SupportRow>& support;  // may be empty (not in the catalog)
  const std::vector<std::string>& existing;  // files now in the toolkit's cuDNN folders, relative to the root
  bool force = false;                    // install despite OS/CUDA incompatibility (warnings instead)
};

/// Maps every member to its place in the toolkit. Windows: DLLs (bin\ or bin\x64\) -> the toolkit's DLL
/// folder, headers -> include, import libraries (lib\x64\ or lib\) -> lib\x64. Linux: headers -> include,
/// libraries -> the toolkit's library folder, links kept as links. LICENSE -> the state folder.
/// Refuses: an archive for another OS than the toolkit's, a CUDA variant or range that does not fit the
/// toolkit (unless force), members that are not cuDNN's (an archive that would replace cuda.h), members
/// outside the known layout. Existing cuDNN files not in the archive (every name
/// contract's is_cudnn_release_file recognises, any sub-library) become remove_stale steps.
Result<InstallPlan> make_install_plan(const PlanInputs& in);

/// The OS, CUDA-major and NVIDIA-range checks alone (make_install_plan runs them first). With `force` a
/// mismatch becomes a warning in the result instead of an error.
Result<std::vector<std::string>> check_compatibility(const ArchiveName& name, const Toolkit& toolkit,
                                                     const std::vector<SupportRow>& support, bool force);

} // namespace cudnnctl
