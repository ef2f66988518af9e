#pragma once
// Runs a command so that the libraries it loads are recorded, for `cudnnctl trace`. The command inherits this
// process's standard input, output and error (its output passes through untouched) and its exit code comes
// back. Linux: the dynamic linker's audit interface (LD_AUDIT = the audit library, CUDNNCTL_TRACE_FILE = the
// event file, CUDNNCTL_TRACE_TOKEN = a random per-run value that starts every line the audit library writes;
// children inherit them; only lines with the token are kept, without it). Windows: the command runs as a debuggee (DEBUG_PROCESS, so its children
// too); each DLL mapped (LOAD_DLL_DEBUG_EVENT) becomes the same lines, its search step told from its folder
// (windows_search_order.hpp), and an unmapped one a "U" line. The events are lines "KIND\tPID\tA\tB\tC" (see
// src/trace/audit): P (ppid, program), S (how, name or candidate path, requester), O (path), U (path, Windows).
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::platform {

struct TracedRun {
  int exit_code = 0;       // the command's; 128+N when a signal N ended it (as shells report it)
  int signal = 0;          // the signal that ended it, 0 when it exited
  std::string events;      // the event lines, in the order they were written
};

/// Where the audit library is: $CUDNNCTL_AUDIT_LIB, else beside this program, else <prefix>/lib*/cudnnctl.
/// Windows needs none: an empty string.
Result<std::string> find_audit_library();

/// Runs argv (looked up on PATH) with the load trace. An error only when the trace cannot be set up; a
/// command that cannot start exits 127 (not found) or 126 (not executable), as a shell's would.
/// `toolkit_dll_dirs` (Windows): the CUDA toolkit's DLL folders, on no step of the search order unless a program
/// adds them; a DLL from one is named "toolkit bin" rather than "unknown". Linux ignores it.
Result<TracedRun> run_with_load_trace(const std::vector<std::string>& argv, const std::string& audit_library,
                                      const std::vector<std::string>& toolkit_dll_dirs = {});

} // namespace cudnnctl::platform
