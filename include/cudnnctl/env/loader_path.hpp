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
  std::string cudnn_path;       // CUDNN_PATH: the toolkit root (cuda-pathfinder, cudnn-frontend, TransformerEngine read it)
  std::string ld_conf_path;     // <root>/etc/ld.so.conf.d/cudnnctl-<name>-<hash>.conf (Linux)
  std::string ld_conf_entry;    // the folder as that file lists it (relative to the system root)
  std::string ld_conf_content;
  std::string list_problem;     // why the folder cannot go into a PATH-style list (a separator or line break in it), or ""
  std::vector<std::string> warnings;  // entries of the current value the loader reads unexpectedly (empty, relative)
  std::string apply_command;    // the commands to print as next steps, runnable as they are (they name the toolkit)
  std::string eval_command;
  GithubUpdate github;
};

/// Plans the change for `toolkit` given the variable's current value. `system_root` is "/" except in tests.
LoaderPathPlan plan_loader_path(const Toolkit& toolkit, const std::string& current_value, const std::string& system_root,
                                const platform::Environment& env);

/// Windows: the plan with `folder` (a DLL folder outside the toolkit: NVIDIA's cuDNN installer's) first on PATH
/// instead of the toolkit's bin; CUDNN_PATH and the commands stay the toolkit's.
void put_folder_first_instead(LoaderPathPlan& plan, const std::string& folder, const std::string& current_value, const platform::Environment& env);

/// The lines to eval in `shell` so this shell (and what it starts) loads the toolkit's cuDNN first.
std::string shell_lines(const LoaderPathPlan& plan, Shell shell);

/// A cudnnctl command line for this toolkit that can be run as printed: "cudnnctl path --cuda-path '/x y' --apply".
std::string toolkit_command(const std::string& toolkit_root, const std::string& command, const std::string& tail = "");

/// `text` (a fix line) with every cudnnctl command in it naming this toolkit, so it runs as printed on the
/// toolkit that was checked: `--cuda-path ROOT` (quoted for the toolkit's shell: '...' for POSIX, "..." for
/// a Windows folder) goes right after `cudnnctl <verb>` for the verbs that take a toolkit (path, doctor,
/// install, uninstall, bench) unless that command already names one; a `<toolkit>` placeholder becomes ROOT.
std::string with_toolkit_named(std::string_view text, const std::string& toolkit_root);

/// Quotes a word for a POSIX shell when it needs it ('...' with ' written as '\'').
std::string shell_word(const std::string& word);

/// A word (a folder) of a fix line as typed into the shell it runs in, quoted only when it needs it: "..." for
/// a Windows folder (C:\..., \\server\...: cmd and PowerShell), else shell_word's '...'. Every cudnnctl command
/// a fix line names quotes its folders with this.
std::string command_word(const std::string& word);

/// The entries of an LD_LIBRARY_PATH value that the loader reads in a way people do not expect: empty
/// entries (":: ", a leading or trailing ':') mean the current folder, relative ones start from it.
std::vector<std::string> loader_path_warnings(const std::string& value);

/// Whether the toolkit's library folder holds a cuDNN (libcudnn.so.N / cudnn64_N.dll); its file name if so.
std::string toolkit_cudnn_file(const Toolkit& toolkit, const std::string& folder);

/// The major version of the cuDNN in the toolkit (its cudnn_version.h), else 9.
unsigned toolkit_cudnn_major(const Toolkit& toolkit);

} // namespace cudnnctl
