#include "cudnnctl/platform/load_trace.hpp"

namespace cudnnctl::platform {

// Windows: not built yet (the debugger loop over LOAD_DLL_DEBUG_EVENT is planned); trace says so plainly.
Result<std::string> find_audit_library() {
  return fail(ErrorCode::usage, "cudnnctl trace does not run on Windows yet",
              "on Windows, see the DLLs a program loads with Process Monitor or 'cudnnctl doctor'; trace works on Linux");
}

Result<TracedRun> run_with_load_trace(const std::vector<std::string>&, const std::string&) { return Unexpected<Error>(find_audit_library().error()); }

} // namespace cudnnctl::platform
