// rpm's database read without rpm: an rpmdb.sqlite written by the sqlite3 program (the real engine's pages:
// interior pages, overflow chains) and one made by the real `rpm --initdb`, read through RpmQuery when the rpm
// program cannot be run; a link, a FIFO or a malformed file where the database should be names nobody.
// (tests/owner/package_owner_test.sh rpm-sqlite reads what the real rpm wrote when it installed a package.)
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>

#include "../archive/test_archives.hpp"
#include "../skip.hpp"
#include "cudnnctl/owner/rpm_database.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "sqlite_bytes.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {

std::string rpmdb_hex(const std::string& bytes) {
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : bytes) out += digits[c >> 4], out += digits[c & 15];
  return out;
}

bool rpmdb_have(const std::string& program) {
  const auto r = platform::run_child({program, "--version"}, {}, 20000);
  return r && r->exit_code == 0;
}

// <root>/var/lib/rpm/rpmdb.sqlite written by sqlite3 with rpm's Packages table: libcudnn9-cuda-13 (a header
// large enough to spill into overflow pages), then 300 other packages (the table grows interior pages), one
// of which owns /usr/lib64/libother.so.
bool rpmdb_write_sqlite3(const fs::path& root) {
  fs::create_directories(root / "var/lib/rpm");
  std::ofstream sql(root / "make.sql");
  sql << "PRAGMA page_size=4096;\nCREATE TABLE IF NOT EXISTS 'Packages' (hnum INTEGER PRIMARY KEY AUTOINCREMENT,blob BLOB NOT NULL);\n"
         "CREATE TABLE Name (key TEXT NOT NULL, hnum INTEGER NOT NULL, idx INTEGER NOT NULL);\nBEGIN;\n";
  std::vector<std::string> bases;
  std::vector<std::uint32_t> index;
  for (int i = 0; i < 400; ++i) bases.push_back("libcudnn_part" + std::to_string(i) + ".so.9"), index.push_back(i % 2);
  bases.push_back("libcudnn.so.9"), index.push_back(1);
  sql << "INSERT INTO Packages(blob) VALUES (X'"
      << rpmdb_hex(rpm_package_blob("libcudnn9-cuda-13", "9.19.0.56", "1", {"/usr/share/doc/x/", "/usr/lib64/"}, bases, index)) << "');\n";
  for (int i = 0; i < 300; ++i)
    sql << "INSERT INTO Packages(blob) VALUES (X'"
        << rpmdb_hex(rpm_package_blob("other" + std::to_string(i), "1.0", "3.fc40", {"/usr/lib64/"},
                                      {i == 150 ? "libother.so" : "f" + std::to_string(i) + std::string(200, 'z')}, {0}))
        << "');\n";
  sql << "INSERT INTO Packages(blob) VALUES (X'00ff');\nCOMMIT;\n";
  sql.close();
  const auto r = platform::run_child({"sqlite3", (root / "var/lib/rpm/rpmdb.sqlite").string(), ".read " + (root / "make.sql").string()}, {}, 60000);
  return r && r->exit_code == 0;
}

} // namespace

TEST_CASE("rpm database: rpmdb.sqlite written by sqlite3, read without rpm", "[rpm_database]") {
  if (!rpmdb_have("sqlite3")) CUDNNCTL_SKIP("no sqlite3 program (scripts/test.sh installs it)");
  TempDir t;
  REQUIRE(rpmdb_write_sqlite3(t.path()));
  const std::string file = (t.path() / "var/lib/rpm/rpmdb.sqlite").string();
  auto db = SqliteFile::open(file);
  REQUIRE(db);
  CHECK(db->page_size() == 4096);
  const auto all = rpm_sqlite_records(*db, file, RecordFilter::all);
  REQUIRE(all.size() == 301);  // the 2-byte blob is no header
  CHECK(all[0].owner.package == "libcudnn9-cuda-13");
  CHECK(all[0].owner.version == "9.19.0.56-1");
  CHECK(all[0].owner.record == file);
  CHECK(all[0].paths.size() == 401);
  CHECK(all[0].paths.back() == "/usr/lib64/libcudnn.so.9");
  CHECK(all[300].owner.package == "other299");
  const auto cudnn = rpm_sqlite_records(*db, file, RecordFilter::naming_cudnn);
  REQUIRE(cudnn.size() == 1);
  CHECK(cudnn[0].owner.package == "libcudnn9-cuda-13");

  // RpmQuery with no rpm program to run: the database, read once, answers, for cuDNN's files and others
  RpmQuery q(t.str(), "/var/lib/rpm", (t.path() / "no-such-rpm").string());
  REQUIRE(q.usable());
  const auto o = q.owner_of({"/lib64/libcudnn.so.9", "/usr/lib64/libcudnn.so.9"});
  REQUIRE(o);
  CHECK(q.route() == RpmQuery::Route::database);
  CHECK(describe(*o) == "rpm: libcudnn9-cuda-13 9.19.0.56-1");
  CHECK(q.owner_of({"/usr/lib64/libother.so"})->package == "other150");
  CHECK_FALSE(q.owner_of({"/usr/lib64/libcudnn_ops.so.9"}));
  CHECK(find_rpm_database(t.str()).dbpath() == "/var/lib/rpm");
}

TEST_CASE("rpm database: a link, a FIFO or a malformed file is no database", "[rpm_database]") {
  if (!rpmdb_have("sqlite3")) CUDNNCTL_SKIP("no sqlite3 program (scripts/test.sh installs it)");
  TempDir t, real;
  REQUIRE(rpmdb_write_sqlite3(real.path()));
  const fs::path db = t.path() / "var/lib/rpm/rpmdb.sqlite";
  fs::create_directories(db.parent_path());
  const auto ask = [&] { return RpmQuery(t.str(), "/var/lib/rpm", "/nonexistent/rpm").owner_of({"/usr/lib64/libcudnn.so.9"}); };
  fs::create_symlink(real.path() / "var/lib/rpm/rpmdb.sqlite", db);
  CHECK_FALSE(ask());
  fs::remove(db);
  REQUIRE(::mkfifo(db.c_str(), 0600) == 0);
  CHECK_FALSE(ask());  // (and does not wait for a writer)
  fs::remove(db);
  fs::copy_file(real.path() / "var/lib/rpm/rpmdb.sqlite", db);
  CHECK(ask());
  fs::resize_file(db, 100);  // the header alone
  CHECK_FALSE(ask());
  std::ofstream(db, std::ios::binary | std::ios::trunc) << std::string(8192, '\xff');
  CHECK_FALSE(ask());
}

TEST_CASE("rpm database: an empty database made by the real rpm --initdb", "[rpm_database]") {
  if (!rpmdb_have("rpm")) CUDNNCTL_SKIP("no rpm program (scripts/test.sh installs it)");
  TempDir t;
  const auto r = platform::run_child({"rpm", "--root", t.str(), "--dbpath", "/var/lib/rpm", "--initdb"}, {}, 60000);
  REQUIRE(r);
  REQUIRE(r->exit_code == 0);
  const std::string file = (t.path() / "var/lib/rpm/rpmdb.sqlite").string();
  auto db = SqliteFile::open(file);
  REQUIRE(db);
  CHECK(db->table_root("Packages"));
  CHECK(db->table_root("Basenames"));
  CHECK(rpm_sqlite_records(*db, file, RecordFilter::all).empty());
  RpmQuery q(t.str(), "/var/lib/rpm", "/nonexistent/rpm");
  CHECK_FALSE(q.owner_of({"/usr/lib64/libcudnn.so.9"}));
  CHECK(q.route() == RpmQuery::Route::database);
}
