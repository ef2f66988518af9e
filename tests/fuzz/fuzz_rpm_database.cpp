// libFuzzer target for rpm's database read without rpm: the SQLite reader (src/owner/sqlite_table.cpp) on a
// whole file in memory with the rpm headers of its Packages table (src/owner/rpm_header.cpp), and the header
// parser on its own. The first byte picks which (even: a header blob, odd: an SQLite file), the rest is the input.
// Besides "no crash, no UB, no unbounded memory", it checks what the readers promise: every package has a plain
// name and version and every file is a plain absolute path.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cudnnctl/owner/owner_records.hpp"
#include "cudnnctl/owner/rpm_database.hpp"
#include "cudnnctl/owner/rpm_header.hpp"
#include "cudnnctl/owner/sqlite_table.hpp"

namespace {

void must(bool ok) {
  if (!ok) std::abort();
}

void plain_package(const std::string& name, const std::string& version, const std::vector<std::string>& files) {
  must(cudnnctl::plain_token(name) && cudnnctl::plain_token(version));
  for (const auto& f : files) must(cudnnctl::plain_absolute_path(f));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  using namespace cudnnctl;
  if (data[0] % 2 == 0) {
    if (const auto p = parse_rpm_header(bytes)) plain_package(p->name, p->version, p->files);
    return 0;
  }
  const auto db = SqliteFile::from_bytes(bytes);
  if (!db) return 0;
  must(db->page_count() >= 1 && db->page_size() >= 512);
  for (const auto& rec : rpm_sqlite_records(*db, "(fuzz)", RecordFilter::all)) plain_package(rec.owner.package, rec.owner.version, rec.paths);
  return 0;
}
