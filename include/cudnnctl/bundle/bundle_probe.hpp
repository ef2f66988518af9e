#pragma once
// Proving a cuDNN copy loads, the way a framework loads its bundle, in a child process (a crash or a
// missing dependency cannot take cudnnctl down): Linux dlopen by path of the main library and then
// every sub-library; Windows LoadLibraryExW with the DLL's folder added. Then cudnnGetVersion().
// The child speaks the child channel (child/child_channel.hpp) as doctor's probe and bench's workload do:
// one JSON line a step ("load" {file, loaded, error} per library, "version" {version}, "error" {message},
// "done"), exit 0 whatever it found, and its -v log relayed into the parent's.
#include <iosfwd>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/child/child_channel.hpp"

namespace cudnnctl {

/// The child's side (`cudnnctl __bundle_load DIR`): the steps on `out`; 0 (a copy that does not load is a step).
int bundle_load_child(const std::string& dir, std::ostream& out);

/// The parent's reading of a child's steps: the version, or bundle.refused saying why `dir` does not load
/// (the first library that failed, the child's own error, a signal, a time-out, or no "done").
Result<unsigned> read_bundle_load_steps(const std::string& dir, const ChildSteps& child);

/// Runs `self_exe __bundle_load DIR` on `dir`; the number cudnnGetVersion() returned (91002 for 9.10.2).
Result<unsigned> probe_bundle_load(const std::string& self_exe, const std::string& dir);
/// The same with this executable.
Result<unsigned> probe_bundle_load(const std::string& dir);

} // namespace cudnnctl
