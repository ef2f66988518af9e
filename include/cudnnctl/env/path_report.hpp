#pragma once
// The analysis behind `cudnnctl path`, shared with `install` (which shows it at the end).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/env/installer_copies.hpp"
#include "cudnnctl/env/loader_path.hpp"

namespace cudnnctl {

struct PathReport {
  LoaderPathPlan plan;
  std::optional<ShadowReport> shadows;  // nullopt when the toolkit is for another OS than this machine
  std::vector<std::string> notes;
  std::string cudnn_file;  // the toolkit's own cuDNN main library (libcudnn.so.9), "" when it holds none
  // Windows, a toolkit without cuDNN: NVIDIA's cuDNN installer's copy that fits it, whose folder the plan puts first
  std::optional<InstallerCopy> installer_copy;
};

/// The note for a plan whose folder cannot go into its list variable (PATH on Windows, LD_LIBRARY_PATH on
/// Linux): "<problem>: no <variable> or GitHub Actions lines are given for it"; empty when there is none.
std::string list_problem_note(const LoaderPathPlan& plan);

/// `consumer`: a program or library whose RUNPATH takes part in the Linux search order (may be empty).
/// `ld_cache_text`: `ldconfig -p` already run (the doctor runs it once); null: run it here.
PathReport make_path_report(const Toolkit& toolkit, const platform::Environment& env, const std::string& system_root,
                            const std::string& consumer, const std::string* ld_cache_text = nullptr);
nlohmann::json path_report_json(const PathReport& r);
std::string shadow_table(const ShadowReport& s);

} // namespace cudnnctl
