#pragma once
// Proving a cuDNN copy loads, the way a framework loads its bundle, in a child process (a crash or a
// missing dependency cannot take cudnnctl down): Linux dlopen by path of the main library and then
// every sub-library; Windows LoadLibraryExW with the DLL's folder added. Then cudnnGetVersion().
#include <iosfwd>
#include <string>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// The child's side (`cudnnctl __bundle_load DIR`): prints the version number; returns the exit code.
int bundle_load_child(const std::string& dir, std::ostream& out, std::ostream& err);

/// Runs the child on `dir`; the number cudnnGetVersion() returned (91002 for 9.10.2).
Result<unsigned> probe_bundle_load(const std::string& dir);

} // namespace cudnnctl
