#pragma once
// The one JSON writer of a CUDA toolkit (install, uninstall, path, doctor, bundle unbundle write it alike).
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/env/toolkit.hpp"

namespace cudnnctl {

/// {"root", "version", "version_source", "os", "lib_dir", "dll_dir", "include_dir", "found_by", "reason"}: the
/// version null when unreadable, dll_dir null on Linux, reason (which toolkit and why, in words) null when not given.
nlohmann::json toolkit_json(const Toolkit& toolkit, const std::string& reason = {});

} // namespace cudnnctl
