#pragma once
// Linux `path --apply`: a file in <root>/etc/ld.so.conf.d that lists the toolkit's library folder, ldconfig
// run over it, and then the ld.so cache read back to check that the toolkit's cuDNN is the one programs
// get. The file is named per toolkit (a hash of its canonical path), folders ldconfig cannot hold are
// refused, and a cache where another folder still comes first is an error that names it.
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/env/loader_path.hpp"

namespace cudnnctl {

/// "cudnnctl-<last folder>-<12 hex of SHA-256 of the canonical root>.conf": two toolkits never share one.
std::string ld_conf_file_name(const std::string& canonical_root);

/// Why ldconfig cannot list `folder` ('#' starts a comment, a line break ends the entry, ':' ',' '=' and
/// tabs split or retype it, blanks at either end are trimmed, it must be absolute), or "" when it can.
std::string ld_conf_problem(const std::string& folder);

/// Why ldconfig under `system_root` would not read a file in its etc/ld.so.conf.d, or "" when it would: its
/// etc/ld.so.conf must `include` that folder's *.conf (Debian, Ubuntu, Fedora and Arch ship that line).
/// `ld_so_conf_text`: the file's text, nullopt when it cannot be read.
std::string conf_d_unread(const std::optional<std::string>& ld_so_conf_text);
/// The same for the file under `system_root` (read bounded, as untrusted input).
std::string conf_d_unread_under(const std::string& system_root);

/// The folders of `soname` (libcudnn.so.9) in `ldconfig -p` output, in the cache's order (the first wins).
std::vector<std::string> cache_dirs_for(const std::string& ldconfig_p_text, const std::string& soname);

/// The ld.so.conf.d files under `system_root` that list `dir` (for saying what still shadows).
std::vector<std::string> conf_files_listing(const std::string& system_root, const std::string& dir);

/// Writes the plan's file (atomically; nothing when it already has this content), runs ldconfig (-r ROOT
/// when `system_root` is not "/"; $CUDNNCTL_LDCONFIG replaces the command) and checks the cache. `soname`
/// is the library whose order is checked ("" when the toolkit holds no cuDNN yet: nothing to check).
/// Returns what it did, in words.
Result<std::string> apply_ld_conf(const LoaderPathPlan& plan, const std::string& system_root, const std::string& soname);

} // namespace cudnnctl
