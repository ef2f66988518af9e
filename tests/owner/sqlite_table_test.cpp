// The SQLite reader on files written byte by byte (sqlite_bytes.hpp): a valid table with interior pages and an
// overflow chain, the 65536-byte page size, and every bound a hostile file can break.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cudnnctl/owner/sqlite_table.hpp"
#include "sqlite_bytes.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

struct SqRow {
  std::int64_t rowid;
  std::string blob;
};

// The rows of table `name` (rowid and the first blob column), or the error's message.
std::pair<std::vector<SqRow>, std::string> sq_rows(const std::string& bytes, const std::string& name = "Packages") {
  std::vector<SqRow> rows;
  auto db = SqliteFile::from_bytes(bytes);
  if (!db) return {rows, db.error().message};
  const auto r = db->read_table(name, [&](std::int64_t id, const std::vector<SqliteValue>& cols) {
    std::string blob;
    for (const auto& c : cols)
      if (c.kind == SqliteValue::Kind::blob) blob = std::string(c.bytes);
    rows.push_back({id, blob});
    return true;
  });
  return {rows, r ? std::string() : r.error().message};
}

std::string sq_pkg(const std::string& blob) { return sq_record({sq_null(), sq_blob(blob)}); }

// A database whose Packages table's root is page 2, a leaf with the given rows.
std::string sq_one_leaf(const std::vector<std::pair<std::int64_t, std::string>>& rows, std::uint32_t page_size = 512) {
  SqDb db;
  db.page_size = page_size;
  const auto root = db.add("");
  std::vector<std::string> cells;
  for (const auto& [id, blob] : rows) cells.push_back(db.cell(id, sq_pkg(blob)));
  db.pages[root - 1] = db.page(0x0D, cells);
  db.schema({{"Name", 0}, {"Packages", root}});
  return db.bytes();
}

} // namespace

TEST_CASE("sqlite: a table's rows, an overflow chain and interior pages", "[sqlite_table]") {
  const std::string big(3025, 'x');  // a 3029-byte record: 39 bytes on the page, the rest on six overflow pages
  auto [rows, err] = sq_rows(sq_one_leaf({{1, "small"}, {2, big}, {7, std::string(30, 'y')}}));
  CHECK(err.empty());
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].rowid == 1);
  CHECK(rows[0].blob == "small");
  CHECK(rows[1].blob == big);
  CHECK(rows[2].rowid == 7);
  CHECK(rows[2].blob == std::string(30, 'y'));

  // an interior root with two leaves (key order), the 65536 page size written as 1
  SqDb db;
  db.page_size = 65536;
  const auto root = db.add(""), left = db.add(""), right = db.add("");
  db.pages[left - 1] = db.page(0x0D, {db.cell(1, sq_pkg("a")), db.cell(2, sq_pkg(std::string(70000, 'b')))});
  db.pages[right - 1] = db.page(0x0D, {db.cell(3, sq_pkg("c"))});
  db.pages[root - 1] = db.page(0x05, {SqDb::interior_cell(left, 2)}, right);
  db.schema({{"Packages", root}});
  std::tie(rows, err) = sq_rows(db.bytes());
  CHECK(err.empty());
  REQUIRE(rows.size() == 3);
  CHECK(rows[1].blob == std::string(70000, 'b'));
  CHECK(rows[2].blob == "c");

  std::tie(rows, err) = sq_rows(db.bytes(), "Basenames");
  CHECK(err.find("has no table 'Basenames'") != std::string::npos);
}

TEST_CASE("sqlite: a bad header is refused", "[sqlite_table]") {
  const std::string good = sq_one_leaf({{1, "a"}});
  CHECK(sq_rows(good).second.empty());
  CHECK(sq_rows(good.substr(0, 60)).second.find("100-byte header") != std::string::npos);
  CHECK(sq_rows("").second.find("100-byte header") != std::string::npos);
  auto bent = [&](std::size_t at, std::uint64_t v, int bytes) {
    std::string s = good;
    put_be(s, at, v, bytes);
    return sq_rows(s).second;
  };
  CHECK(bent(0, 'X', 1).find("SQLite format 3") != std::string::npos);
  CHECK(bent(16, 1, 2).find("shorter than its first page") != std::string::npos);  // 1: 65536 bytes, the file is 1 KiB
  CHECK(bent(16, 0, 2).find("page size 0") != std::string::npos);
  CHECK(bent(16, 1000, 2).find("page size 1000") != std::string::npos);
  CHECK(bent(16, 256, 2).find("page size 256") != std::string::npos);
  CHECK(bent(20, 40, 1).find("reserved bytes") != std::string::npos);  // 512 - 40 < 480
  CHECK(bent(19, 3, 1).find("file format 3") != std::string::npos);
  CHECK(bent(21, 65, 1).find("payload fractions") != std::string::npos);
  CHECK(bent(56, 2, 4).find("UTF-16") != std::string::npos);
  CHECK(bent(100, 0x0A, 1).find("not a table b-tree page") != std::string::npos);  // page 1 an index leaf
}

TEST_CASE("sqlite: page numbers out of the file, cycles and depth", "[sqlite_table]") {
  const auto interior_db = [](std::uint32_t child, std::uint32_t right) {
    SqDb db;
    const auto root = db.add(""), leaf = db.add("");
    db.pages[leaf - 1] = db.page(0x0D, {db.cell(1, sq_pkg("a"))});
    db.pages[root - 1] = db.page(0x05, {SqDb::interior_cell(child ? child : leaf, 1)}, right ? right : leaf);
    db.schema({{"Packages", root}});
    return db.bytes();
  };
  CHECK(sq_rows(interior_db(0, 0)).second.find("reached twice") != std::string::npos);  // both pointers name one leaf
  CHECK(sq_rows(interior_db(99, 0)).second.find("page 99 is outside") != std::string::npos);
  CHECK(sq_rows(interior_db(0, 2)).second.find("page 2 is reached twice") != std::string::npos);  // a cycle to the root

  SqDb deep;  // interior pages 2 -> 3 -> ... -> 30, each with only its right-most child
  const auto first = deep.add("");
  for (std::uint32_t p = first; p < 30; ++p) deep.add("");
  for (std::uint32_t p = first; p < 30; ++p) deep.pages[p - 1] = deep.page(0x05, {}, p + 1);
  deep.pages[29] = deep.page(0x0D, {deep.cell(1, sq_pkg("a"))});
  deep.schema({{"Packages", first}});
  CHECK(sq_rows(deep.bytes()).second.find("deeper than") != std::string::npos);

  SqDb badroot;
  badroot.schema({{"Packages", 5}});
  CHECK(sq_rows(badroot.bytes()).second.find("outside the file") != std::string::npos);
}

TEST_CASE("sqlite: overflow chains that cycle, end early or are too long", "[sqlite_table]") {
  std::string s = sq_one_leaf({{1, std::string(2000, 'x')}});  // page 2 the leaf, pages 3.. its chain
  std::string cyc = s;
  put_be(cyc, 3 * 512, 4, 4);  // page 4 names page 4 as its next
  CHECK(sq_rows(cyc).second.find("page 4 is reached twice") != std::string::npos);
  std::string back = s;
  put_be(back, 2 * 512, 2, 4);  // page 3 names the leaf itself
  CHECK(sq_rows(back).second.find("reached twice") != std::string::npos);
  std::string early = s;
  put_be(early, 2 * 512, 0, 4);
  CHECK(sq_rows(early).second.find("ends before its record") != std::string::npos);
  std::string past = s;
  put_be(past, 2 * 512, 77, 4);
  CHECK(sq_rows(past).second.find("page 77 is outside") != std::string::npos);

  // a cell that says its record is 1 GiB; a cell pointer outside the page; more cells than the page holds
  SqDb db;
  const auto root = db.add("");
  db.pages[root - 1] = db.page(0x0D, {sq_varint(1ull << 30) + sq_varint(1) + "abc"});
  db.schema({{"Packages", root}});
  CHECK(sq_rows(db.bytes()).second.find("more than the") != std::string::npos);
  SqDb claims;  // 100 000 bytes in a file of two pages
  const auto root2 = claims.add("");
  claims.pages[root2 - 1] = claims.page(0x0D, {sq_varint(100000) + sq_varint(1) + std::string(39, 'a') + be_bytes(0, 4)});
  claims.schema({{"Packages", root2}});
  CHECK(sq_rows(claims.bytes()).second.find("more than the file holds") != std::string::npos);
  std::string out = sq_one_leaf({{1, "a"}});
  put_be(out, 512 + 8, 511, 2);
  CHECK(sq_rows(out).second.find("outside it") != std::string::npos);
  std::string many = sq_one_leaf({{1, "a"}});
  put_be(many, 512 + 3, 400, 2);
  CHECK(sq_rows(many).second.find("cell pointers run past") != std::string::npos);
}

TEST_CASE("sqlite: records that break the record format", "[sqlite_table]") {
  SqDb db;
  const auto root = db.add("");
  db.pages[root - 1] = db.page(0x0D, {db.cell(1, sq_record({{10, ""}})),  // serial type 10 is reserved
                                      db.cell(2, sq_varint(3) + sq_varint(0) + sq_varint(12 + 2 * 50))});  // blob past the end
  db.schema({{"Packages", root}});
  CHECK(sq_rows(db.bytes()).second.find("row 1 breaks the record format") != std::string::npos);
  SqDb db2;
  const auto root2 = db2.add("");
  db2.pages[root2 - 1] = db2.page(0x0D, {db2.cell(2, sq_varint(3) + sq_varint(0) + sq_varint(12 + 2 * 50))});
  db2.schema({{"Packages", root2}});
  CHECK(sq_rows(db2.bytes()).second.find("row 2 breaks the record format") != std::string::npos);
}
