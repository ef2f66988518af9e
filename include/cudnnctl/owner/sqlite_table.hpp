#pragma once
// The rows of one table of an SQLite 3 database, read without an sqlite library (the portable glibc-2.17 and
// mingw builds carry none): rpm's rpmdb.sqlite, when no `rpm` program can be run. Read-only and minimal: the
// 100-byte header (page size, 65536 written as 1, reserved bytes), the schema table on page 1 to find a
// table's root page by name, the table b-tree (interior 0x05 and leaf 0x0D pages), the record format
// (varints, serial types) and overflow page chains. Indexes, WITHOUT ROWID tables, UTF-16 databases and
// free-lists are not read.
//
// The file is untrusted: every offset is checked against its page, every page number against the file, the
// b-tree is at most k_sqlite_depth_max deep, and no page is read twice in one walk (b-tree and overflow pages
// share one visited set: a cycle or two chains through one page is an error, and a walk reads at most the file
// once). A row's record is at most k_sqlite_record_max bytes, the file at most k_sqlite_file_max; pages are read
// one at a time as the walk needs them, so a walk holds a few pages and one record in memory. A malformed file
// gives an error (the rows handed out before it stay handed out), never a crash.
//
// WAL: only the main file is read. Writes that sit in a `-wal` file beside it and are not checkpointed yet are
// not seen; rpm checkpoints when it closes the database (Debian's rpm 4.18 leaves an empty rpmdb.sqlite-wal
// after `rpm -i`), so only a transaction in progress is missed.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

inline constexpr std::uint64_t k_sqlite_file_max = 1ull << 30;     // a real rpmdb.sqlite is 10-300 MB
inline constexpr std::uint64_t k_sqlite_record_max = 32ull << 20;  // one row (an rpm header is KBs to a few MB)
inline constexpr int k_sqlite_depth_max = 20;                      // SQLite's own trees stay far below this

/// One column of a row. The bytes of a text or a blob point into the row's record: valid during the callback.
struct SqliteValue {
  enum class Kind { null, integer, real, text, blob };
  Kind kind = Kind::null;
  std::int64_t integer = 0;  // integer columns (and the constants 0 and 1)
  std::string_view bytes;    // text and blob columns
};

/// Called for each row of a table, in rowid order; return false to stop the walk.
using SqliteRowFn = std::function<bool(std::int64_t rowid, const std::vector<SqliteValue>& columns)>;

class SqliteFile {
public:
  /// Reads n bytes at an offset into `out`; false when they cannot all be read.
  using ReadAt = std::function<bool(std::uint64_t offset, std::size_t n, std::uint8_t* out)>;

  /// A database held in memory (tests, the fuzz target): `bytes` must outlive the reader.
  static Result<SqliteFile> from_bytes(std::string_view bytes);
  /// The database file at `path`, read page by page: a regular file only (a link, a FIFO, a device or a
  /// folder is refused with input.invalid, a missing file is io.not-found), at most k_sqlite_file_max bytes.
  static Result<SqliteFile> open(const std::string& path);

  /// The root page of the table `name` as the schema names it; input.invalid when there is none.
  Result<std::uint32_t> table_root(std::string_view name) const;
  /// Hands `row` each row of the table b-tree rooted at `root`.
  Result<void> each_row(std::uint32_t root, const SqliteRowFn& row) const;
  /// table_root, then each_row.
  Result<void> read_table(std::string_view name, const SqliteRowFn& row) const;

  std::uint32_t page_size() const { return m_page_size; }
  std::uint32_t page_count() const { return m_page_count; }
  const std::string& source() const { return m_source; }  // the path, or "(memory)", for messages

private:
  SqliteFile(ReadAt read, std::uint64_t size, std::string source) : m_read(std::move(read)), m_size(size), m_source(std::move(source)) {}
  Result<void> read_header();

  ReadAt m_read;
  std::uint64_t m_size = 0;
  std::string m_source;
  std::uint32_t m_page_size = 0, m_usable = 0, m_page_count = 0;
};

} // namespace cudnnctl
