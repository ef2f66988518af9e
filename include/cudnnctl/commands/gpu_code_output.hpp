#pragma once
// The GPU code of an archive's libraries as `inspect ARCHIVE` shows it (text lines and JSON).
#include <iosfwd>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/install/archive_libraries.hpp"

namespace cudnnctl {

/// One library: {"library", "has_fatbin", "section", "containers", "entries", "sass", "ptx", "ptx_isa",
/// "compressed_entries"} or {"library", "error"}.
nlohmann::json archive_gpu_code_to_json(const std::vector<ArchiveLibraryGpuCode>& libraries);
void print_archive_gpu_code(std::ostream& out, const std::vector<ArchiveLibraryGpuCode>& libraries);

} // namespace cudnnctl
