#pragma once
// The site folders of the Python interpreters on PATH, asked as little as possible: each pyenv shim is
// mapped to the interpreter it would run (PYENV_VERSION, .python-version, <pyenv root>/version) without
// running pyenv; a venv's folders come from its pyvenv.cfg and a standard CPython prefix's from its
// lib/pythonX.Y layout, without running anything; the interpreters left are each asked once (one child
// per distinct real executable), in parallel. `bundle list` and the doctor's bundles.* gathering use it.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

/// What python_sites reads of the disk: the machine (make_real_python_disk) or a test's or the doctor's seam.
class PythonDisk {
public:
  virtual ~PythonDisk() = default;
  virtual bool exists(const std::string& path) = 0;
  virtual bool is_dir(const std::string& path) = 0;
  /// A small regular file's text; nullopt when it cannot be read.
  virtual std::optional<std::string> read_text(const std::string& path) = 0;
  /// Names in a folder; empty when it is not a readable folder.
  virtual std::vector<std::string> list_dir(const std::string& dir) = 0;
  /// `path` with its symbolic links resolved; `path` itself when it cannot be.
  virtual std::string real_path(const std::string& path) = 0;
};

std::unique_ptr<PythonDisk> make_real_python_disk();

/// pyvenv.cfg's `key = value` lines (keys lower-cased, both sides trimmed; other lines ignored). Pure.
std::map<std::string, std::string> parse_pyvenv_cfg(std::string_view text);

/// The interpreter a pyenv shim (`<root>/shims/<name>` beside `<root>/versions`) runs: the first version of
/// $PYENV_VERSION, else of the nearest .python-version from $PYENV_DIR (else `cwd`) upwards, else of
/// <root>/version, whose bin/<name> exists; "system" is <name> on PATH past the shims. `exe` itself when it
/// is no shim; nullopt when pyenv's choice cannot be read from disk (the shim must be run).
std::optional<std::string> resolve_pyenv_shim(const std::string& exe, const platform::Environment& env, const std::string& cwd, PythonDisk& disk);

/// One distinct interpreter: either its site folders were read from disk, or `run` must be asked.
struct PythonTarget {
  std::string identity;                  // the venv folder, or the real executable
  std::string run;                       // what to run when it must be asked
  std::vector<std::string> names;        // the PATH entries or names that led here, in order
  std::optional<std::vector<std::string>> sites;  // read from disk (site.getsitepackages() + the user's)
};

/// The site folders of interpreter `exe` (a path, shims already resolved) as site.getsitepackages() and
/// site.getusersitepackages() would print them, when its layout says so: a venv (pyvenv.cfg beside or above
/// it), or a CPython 3 prefix other than /usr (bin/pythonX.Y beside lib/pythonX.Y/os.py); nullopt when it
/// must be asked ($PYTHONHOME or $PYTHONPLATLIBDIR set, a distribution's patched /usr, lib64, Python 2, ...).
std::optional<std::vector<std::string>> sites_from_layout(const std::string& exe, const platform::Environment& env, PythonDisk& disk);

/// The distinct interpreters behind `exes` (paths), in first-seen order: shims resolved, the same venv or
/// real executable reached twice kept once, each one's folders read from disk where its layout allows.
std::vector<PythonTarget> plan_python_sites(const std::vector<std::string>& exes, const platform::Environment& env, const std::string& cwd,
                                            PythonDisk& disk);

/// `name` found in the environment's PATH (`name`.exe on Windows), as a path; empty when no PATH folder
/// holds it. A name with a slash is itself.
std::string find_on_path(const std::string& name, const platform::Environment& env, bool windows, PythonDisk& disk);

using AskSites = std::function<Result<std::vector<std::string>>(const std::string& exe)>;

struct PythonSitesFound {
  std::vector<std::string> sites;                                 // every target's, in order, repeats dropped
  std::vector<std::pair<std::string, std::string>> not_asked;    // (name or exe, why) of those that failed
  int asked = 0;                                                  // children run
};

/// The site folders of `targets`: those read from disk, and each of the others asked through `ask` once,
/// all of those at the same time.
PythonSitesFound collect_python_sites(const std::vector<PythonTarget>& targets, const AskSites& ask);

} // namespace cudnnctl
