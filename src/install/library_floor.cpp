#include "cudnnctl/install/library_floor.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "cudnnctl/archive/reader.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/loader/forward_reader.hpp"

namespace cudnnctl {

void note_library_floor(LibraryFloorReport& report, const std::string& name, const Result<ElfDynamicInfo>& elf) {
  if (!elf) {
    report.unreadable.push_back(name + ": " + elf.error().message);
    return;
  }
  report.floor.add(name, elf->version_needs);
  const auto machine = elf_machine_name(elf->machine);
  if (std::find(report.machines.begin(), report.machines.end(), machine) == report.machines.end()) report.machines.push_back(machine);
}

Result<LibraryFloorReport> archive_library_floor(const std::string& path, ArchiveFormat format) {
  LibraryFloorReport report;
  const auto want = [](const ArchiveEntry& e) { return is_shared_library_name(std::string(base_name(e.name))); };
  const MemberVisit visit = [&](const ArchiveEntry& e, const MemberPull& pull) {
    const auto reader = forward_reader([&pull](char* buf, std::size_t n) { return pull(buf, n); });
    note_library_floor(report, std::string(base_name(e.name)), read_elf_dynamic(reader, e.name));
    return true;
  };
  CUDNNCTL_TRY(visit_members(path, format, want, visit));
  return report;
}

LibraryFloorReport folder_library_floor(const std::string& folder) {
  LibraryFloorReport report;
  for (const auto& path : library_files_in(folder)) {
    const std::string name(base_name(path));
    if (is_shared_library_name(name)) note_library_floor(report, name, read_elf_file(path));
  }
  return report;
}

Result<void> check_library_floor(const LibraryFloorReport& report, const HostSymbolVersions& host, const std::string& archive) {
  const auto short_of = floor_shortfalls(report.floor, host);
  if (short_of.empty()) return {};
  std::string what;
  for (const auto& s : short_of)
    what += fmt::format("{}{} needs {}, this host has {}", what.empty() ? "" : "; ", s.needed.library, s.needed.version.text(), s.host.text());
  return fail(ErrorCode::host_too_old,
              fmt::format("'{}' needs a newer C or C++ runtime than this host has: {}", archive, what),
              "use a newer OS image (its glibc / libstdc++), or an older cuDNN release built for this one; --force installs "
              "anyway (for another machine), but the libraries will not load here",
              archive);
}

} // namespace cudnnctl
