// rpm's owner of a file: `rpm -qf` where the program runs, else rpmdb.sqlite read directly (rpm_database.hpp).
#include "cudnnctl/owner/rpm_database.hpp"

#include <algorithm>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/owner/owner_records.hpp"
#include "cudnnctl/owner/rpm_header.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {
namespace {
namespace rpm_db {  // (a named namespace: the owner module is built as one unity file)

// "cudnn" in any case anywhere in the bytes (a header whose file names cuDNN, as names_cudnn reads it, does).
bool mentions_cudnn(std::string_view bytes) {
  static constexpr std::string_view k_word = "cudnn";  // letters only: setting bit 0x20 lowers exactly their capitals
  return std::search(bytes.begin(), bytes.end(), k_word.begin(), k_word.end(), [](char a, char w) { return (a | 0x20) == w; }) != bytes.end();
}

// A note for the log when rpm left writes in the WAL file that this reader does not see.
void note_wal(const std::string& file) {
  if (const auto size = platform::file_size(file + "-wal"); size && *size > 0)
    log::info("owner: '{}-wal' holds {} bytes not yet checkpointed into the database: what they change is not seen", file, *size);
}

} // namespace rpm_db
} // namespace

std::vector<PackageRecord> rpm_sqlite_records(const SqliteFile& db, const std::string& record, RecordFilter filter) {
  std::vector<PackageRecord> out;
  std::size_t rows = 0, unread = 0;
  const auto walked = db.read_table("Packages", [&](std::int64_t, const std::vector<SqliteValue>& columns) {
    ++rows;
    // (hnum INTEGER PRIMARY KEY, blob BLOB): the rowid's column is stored as NULL, the header is the blob
    for (const auto& c : columns) {
      if (c.kind != SqliteValue::Kind::blob) continue;
      if (filter == RecordFilter::naming_cudnn && !rpm_db::mentions_cudnn(c.bytes)) break;
      auto pkg = parse_rpm_header(c.bytes);
      if (!pkg) {
        ++unread;
        break;
      }
      out.push_back({{OwnerKind::rpm, std::move(pkg->name), std::move(pkg->version), false, record}, std::move(pkg->files)});
      break;
    }
    return true;
  });
  if (!walked) log::info("owner: {}", walked.error().message);
  log::debug("owner: {} rows of '{}' read, {} packages kept, {} headers not readable", rows, record, out.size(), unread);
  return out;
}

std::vector<PackageRecord> read_rpm_sqlite_records(const std::string& root, const std::string& dbpath, RecordFilter filter) {
  const std::string file = under_root(root, dbpath) + "/rpmdb.sqlite";
  auto db = SqliteFile::open(file);
  if (!db) {
    log::info("owner: rpm's database cannot be read: {}", db.error().message);
    return {};
  }
  rpm_db::note_wal(file);
  return rpm_sqlite_records(*db, file, filter);
}

RpmQuery find_rpm_database(const std::string& root) {
  for (const char* db : {"/var/lib/rpm", "/usr/lib/sysimage/rpm"})
    for (const char* file : {"/rpmdb.sqlite", "/Packages"})
      if (platform::require_regular_file(under_root(root, db) + std::string(file), "the rpm database")) return RpmQuery{root, std::string(db)};
  return RpmQuery{root, {}};
}

std::optional<Owner> RpmQuery::owner_of(const std::vector<std::string>& candidates) {
  if (m_route != Route::database)
    if (auto o = program_owner(candidates); o || m_route == Route::program) return o;
  return database_owner(candidates);
}

std::optional<Owner> RpmQuery::program_owner(const std::vector<std::string>& candidates) {
  for (const auto& c : candidates) {
    const auto r = platform::run_child({m_program, "--root", m_root, "--dbpath", m_dbpath, "-qf", "--queryformat", "%{NAME}\t%{VERSION}-%{RELEASE}\n", c},
                                       {}, 20000);
    if (!r || (r->exit_code == 127 && r->out.empty())) {  // it cannot be started (127: exec failed, no such program)
      log::info("owner: the rpm program '{}' cannot be run ({}): reading rpm's database {}/rpmdb.sqlite directly", m_program,
                r ? std::string("exit status 127") : r.error().message, under_root(m_root, m_dbpath));
      m_route = Route::database;
      return std::nullopt;
    }
    if (m_route == Route::unknown) log::info("owner: asking 'rpm -qf' with the database {}", under_root(m_root, m_dbpath));
    m_route = Route::program;
    if (r->timed_out || r->signal != 0 || r->exit_code != 0) continue;  // exit 1: not owned
    const std::string first = r->out.substr(0, r->out.find('\n'));
    const auto tab = first.find('\t');
    if (tab == std::string::npos) continue;
    Owner o{OwnerKind::rpm, first.substr(0, tab), first.substr(tab + 1), false, under_root(m_root, m_dbpath)};
    if (plain_token(o.package) && plain_token(o.version)) return o;
  }
  return std::nullopt;
}

std::optional<Owner> RpmQuery::database_owner(const std::vector<std::string>& candidates) {
  if (!m_loaded) {
    m_loaded = true;
    for (auto& rec : read_rpm_sqlite_records(m_root, m_dbpath, RecordFilter::naming_cudnn))
      for (const auto& p : rec.paths) m_by_path.try_emplace(p, rec.owner);
    log::info("owner: rpm's database read directly: {} paths of packages that mention cuDNN", m_by_path.size());
  }
  bool all_cudnn = true;
  for (const auto& c : candidates) {
    if (const auto it = m_by_path.find(c); it != m_by_path.end()) return it->second;
    all_cudnn = all_cudnn && names_cudnn(c);
  }
  if (all_cudnn) return std::nullopt;  // a package holding a cuDNN-named file mentions cuDNN: the index has it
  for (const auto& rec : read_rpm_sqlite_records(m_root, m_dbpath, RecordFilter::all))
    for (const auto& c : candidates)
      for (const auto& p : rec.paths)
        if (p == c) return rec.owner;
  return std::nullopt;
}

} // namespace cudnnctl
