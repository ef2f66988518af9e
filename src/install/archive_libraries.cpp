#include "cudnnctl/install/archive_libraries.hpp"

#include <vector>

#include "cudnnctl/archive/reader.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/loader/fatbin_stream.hpp"
#include "cudnnctl/loader/forward_reader.hpp"

namespace cudnnctl {

namespace {

// One library member: its ELF floor read through a forward reader whose every pulled byte also goes to
// the fat-binary scanner, then the rest of the member drained into the scanner.
ArchiveLibraryGpuCode read_one_library(const ArchiveEntry& e, const MemberPull& pull, LibraryFloorReport& floor) {
  const auto name = std::string(base_name(e.name));
  FatbinStreamScanner scanner(e.name);
  const MemberPull tee = [&](char* buf, std::size_t n) {
    const auto got = pull(buf, n);
    scanner.feed(buf, got);
    return got;
  };
  if (is_shared_library_name(name)) {
    const auto reader = forward_reader([&tee](char* buf, std::size_t n) { return tee(buf, n); });
    note_library_floor(floor, name, read_elf_dynamic(reader, e.name));
  }
  std::vector<char> chunk(std::size_t{1} << 20);
  while (tee(chunk.data(), chunk.size()) > 0) {
  }
  ArchiveLibraryGpuCode out{name, std::nullopt, {}};
  auto code = scanner.finish();
  if (code) out.code = std::move(*code);
  else out.unreadable = code.error().message;
  return out;
}

} // namespace

Result<ArchiveLibraryFacts> read_archive_libraries(const std::string& path, ArchiveFormat format) {
  ArchiveLibraryFacts out;
  const auto want = [](const ArchiveEntry& e) { return is_library_file_name(std::string(base_name(e.name))); };
  const MemberVisit visit = [&](const ArchiveEntry& e, const MemberPull& pull) {
    out.gpu_code.push_back(read_one_library(e, pull, out.floor));
    return true;
  };
  CUDNNCTL_TRY(visit_members(path, format, want, visit));
  return out;
}

} // namespace cudnnctl
