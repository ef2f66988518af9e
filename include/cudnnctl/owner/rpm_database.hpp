#pragma once
// rpm's answer to "who owns this file?", two ways: the `rpm` program (`rpm --root R --dbpath D -qf PATH`, the
// root's own database: Debian's rpm would otherwise read ~/.rpmdb), read-only, with a time limit, where it can
// be run; else the database read directly, read-only and without an sqlite library: the Packages table of
// <root><dbpath>/rpmdb.sqlite (sqlite_table.hpp), each row's header (rpm_header.hpp) read once per RpmQuery.
// The Berkeley DB `Packages` of older systems is only read through the program. rpm's own lock is not taken
// (the reader never writes); changes in a not yet checkpointed rpmdb.sqlite-wal are not seen.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/owner/owner.hpp"
#include "cudnnctl/owner/owner_sources.hpp"
#include "cudnnctl/owner/sqlite_table.hpp"

namespace cudnnctl {

/// The packages of an rpm database's Packages table (the file named `record` in messages and owners);
/// with RecordFilter::naming_cudnn only those whose header mentions cuDNN. Rows read before a malformed page
/// stay in the answer; a row whose header breaks the format is left out.
std::vector<PackageRecord> rpm_sqlite_records(const SqliteFile& db, const std::string& record, RecordFilter filter);

/// The same read from <root><dbpath>/rpmdb.sqlite: nothing when it is missing, not a regular file (a link, a
/// FIFO, a device) or not a database this reader reads.
std::vector<PackageRecord> read_rpm_sqlite_records(const std::string& root, const std::string& dbpath, RecordFilter filter);

class RpmQuery {
public:
  enum class Route { unknown, program, database };

  RpmQuery() = default;
  /// `root`: "/" or the tree; `dbpath`: the database folder as the target names it ("/var/lib/rpm",
  /// "/usr/lib/sysimage/rpm"); empty when there is none. `program`: the rpm program to run (tests name
  /// one that does not exist).
  RpmQuery(std::string root, std::string dbpath, std::string program = "rpm")
      : m_root(std::move(root)), m_dbpath(std::move(dbpath)), m_program(std::move(program)) {}
  bool usable() const { return !m_dbpath.empty(); }
  const std::string& dbpath() const { return m_dbpath; }

  /// The first package that owns one of `candidates` (target paths); nullopt when none does. The first
  /// question picks the route: the program, or, when it cannot be started, the database (read once).
  std::optional<Owner> owner_of(const std::vector<std::string>& candidates);
  /// The route the questions so far took.
  Route route() const { return m_route; }

private:
  std::optional<Owner> program_owner(const std::vector<std::string>& candidates);
  std::optional<Owner> database_owner(const std::vector<std::string>& candidates);

  std::string m_root, m_dbpath, m_program;
  Route m_route = Route::unknown;
  bool m_loaded = false;
  std::map<std::string, Owner> m_by_path;  // every path of the packages that mention cuDNN
};

/// The root's rpm database folder (one holding rpmdb.sqlite or Packages); dbpath empty when there is none.
RpmQuery find_rpm_database(const std::string& root);

} // namespace cudnnctl
