#pragma once
// What `cudnnctl path` shows and changes: the toolkit's library folder first on the loader path
// (LD_LIBRARY_PATH / ld.so.conf.d on Linux, PATH on Windows), the copies of cuDNN that shadow it, the
// lines a shell can eval, and the GitHub Actions files.
#include <string>
#include <vector>

#include "cudnnctl/env/github_env.hpp"
#include "cudnnctl/env/path_list.hpp"
#include "cudnnctl/env/shadow_scan.hpp"
#include "cudnnctl/env/toolkit.hpp"

namespace cudnnctl {

enum class Shell { bash, fish, pwsh };

struct LoaderPathPlan {
  std::string folder;     // the folder to put first (absolute)
  std::string variable;   // LD_LIBRARY_PATH or PATH
  PathFlavor flavor = PathFlavor::posix;
  PathFix fix;            // on the variable's current value
  std::string ld_conf_path;     // <root>/etc/ld.so.conf.d/cudnnctl-<toolkit>.conf (Linux)
  std::string ld_conf_content;
  GithubUpdate github;
};

/// Plans the change for `toolkit` given the variable's current value. `system_root` is "/" except in tests.
LoaderPathPlan plan_loader_path(const Toolkit& toolkit, const std::string& current_value, const std::string& system_root,
                                const platform::Environment& env);

/// The lines to eval in `shell` so this shell (and what it starts) loads the toolkit's cuDNN first.
std::string shell_lines(const LoaderPathPlan& plan, Shell shell);

/// The major version of the cuDNN in the toolkit (its cudnn_version.h), else 9.
unsigned toolkit_cudnn_major(const Toolkit& toolkit);

} // namespace cudnnctl
