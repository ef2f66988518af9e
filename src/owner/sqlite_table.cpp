// An SQLite 3 table read from the file's bytes, bounded (sqlite_table.hpp). The format is SQLite's own
// "Database File Format" page: a 100-byte header, then pages; page 1 is the schema table's root.
#include "cudnnctl/owner/sqlite_table.hpp"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>

#include <fmt/format.h>

#include "cudnnctl/base/byte_order.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/input_file.hpp"

namespace cudnnctl {
namespace {
namespace sqlite_pages {  // (a named namespace: the owner module is built as one unity file)

using Bytes = std::vector<std::uint8_t>;
constexpr std::size_t k_sqlite_columns_max = 32767;  // SQLite's own hard limit on a table's columns

// An SQLite varint at p (1 to 9 bytes, at most `avail`): its value and length; length 0 when it runs off the end.
std::size_t varint(const std::uint8_t* p, std::size_t avail, std::uint64_t& v) {
  v = 0;
  for (std::size_t i = 0; i < 9; ++i) {
    if (i >= avail) return 0;
    if (i == 8) {
      v = v << 8 | p[i];
      return 9;
    }
    v = v << 7 | (p[i] & 0x7f);
    if (!(p[i] & 0x80)) return i + 1;
  }
  return 0;
}

Unexpected<Error> malformed(const std::string& source, const std::string& why) {
  return fail(ErrorCode::input_invalid, fmt::format("the SQLite database '{}' is malformed: {}", source, why), "", source);
}

// One walk over a b-tree: the pages it has read (b-tree and overflow pages alike), the row callback.
struct Walk {
  const SqliteFile::ReadAt& read;
  const std::string& source;
  std::uint32_t page_size, usable, page_count;
  const SqliteRowFn& row;
  std::vector<bool> seen;

  // Page `n` (1-based) read into `buf`, once per walk.
  Result<void> load(std::uint32_t n, Bytes& buf) {
    if (n < 1 || n > page_count) return malformed(source, fmt::format("page {} is outside the file's {} pages", n, page_count));
    if (seen[n]) return malformed(source, fmt::format("page {} is reached twice (a cycle)", n));
    seen[n] = true;
    buf.resize(page_size);
    if (!read(static_cast<std::uint64_t>(n - 1) * page_size, page_size, buf.data()))
      return fail(ErrorCode::io, fmt::format("cannot read page {} of '{}'", n, source), "", source);
    return {};
  }
};

// The value of an integer column of `n` bytes (big-endian two's complement).
std::int64_t be_int(const std::uint8_t* p, std::size_t n) {
  std::uint64_t v = (p[0] & 0x80) ? ~0ull : 0;
  for (std::size_t i = 0; i < n; ++i) v = v << 8 | p[i];
  return static_cast<std::int64_t>(v);
}

// A record (header of serial types, then the body) split into its columns; nullopt when it breaks the format.
std::optional<std::vector<SqliteValue>> decode_record(std::string_view rec) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(rec.data());
  std::uint64_t header = 0;
  std::size_t at = varint(p, rec.size(), header);
  if (at == 0 || header < at || header > rec.size()) return std::nullopt;
  std::vector<SqliteValue> out;
  std::uint64_t body = header;
  while (at < header) {
    if (out.size() >= k_sqlite_columns_max) return std::nullopt;
    std::uint64_t type = 0;
    const std::size_t n = varint(p + at, header - at, type);
    if (n == 0) return std::nullopt;
    at += n;
    static constexpr std::size_t int_size[] = {0, 1, 2, 3, 4, 6, 8};
    SqliteValue v;
    std::uint64_t size = 0;
    if (type >= 1 && type <= 6) v.kind = SqliteValue::Kind::integer, size = int_size[type];
    else if (type == 7) v.kind = SqliteValue::Kind::real, size = 8;
    else if (type == 8 || type == 9) v.kind = SqliteValue::Kind::integer, v.integer = type == 9;
    else if (type == 10 || type == 11) return std::nullopt;  // reserved
    else if (type >= 12) v.kind = type % 2 ? SqliteValue::Kind::text : SqliteValue::Kind::blob, size = (type - 12) / 2;
    if (size > rec.size() - body) return std::nullopt;
    if (v.kind == SqliteValue::Kind::integer && size > 0) v.integer = be_int(p + body, size);
    if (v.kind == SqliteValue::Kind::text || v.kind == SqliteValue::Kind::blob) v.bytes = rec.substr(body, size);
    body += size;
    out.push_back(v);
  }
  return out;
}

// The payload of a leaf cell: `local` bytes on the page at `at`, the rest on the overflow chain after them.
Result<std::string> payload(Walk& w, const Bytes& page, std::size_t at, std::uint64_t total) {
  const std::uint64_t u = w.usable, x = u - 35;
  std::uint64_t local = total;
  if (total > x) {
    const std::uint64_t m = (u - 12) * 32 / 255 - 23, k = m + (total - m) % (u - 4);
    local = k <= x ? k : m;
  }
  const bool spills = local < total;
  if (at + local + (spills ? 4 : 0) > u) return malformed(w.source, "a cell runs past its page");
  std::string out(reinterpret_cast<const char*>(page.data() + at), local);
  if (!spills) return out;
  out.reserve(total);
  std::uint32_t next = big_endian_u32(page.data() + at + local);
  Bytes buf;
  while (out.size() < total) {
    if (next == 0) return malformed(w.source, "an overflow chain ends before its record");
    CUDNNCTL_TRY(w.load(next, buf));
    next = big_endian_u32(buf.data());
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(total - out.size(), u - 4));
    out.append(reinterpret_cast<const char*>(buf.data() + 4), take);
  }
  return out;
}

// One leaf cell: its record handed to the callback. False when the callback stopped the walk.
Result<bool> leaf_cell(Walk& w, const Bytes& page, std::size_t at) {
  std::uint64_t total = 0, rowid = 0;
  const std::size_t n1 = varint(page.data() + at, w.usable - at, total);
  const std::size_t n2 = n1 ? varint(page.data() + at + n1, w.usable - at - n1, rowid) : 0;
  if (n2 == 0) return malformed(w.source, "a cell's header runs past its page");
  if (total > k_sqlite_record_max)
    return malformed(w.source, fmt::format("a record of {} bytes, more than the {} read", total, k_sqlite_record_max));
  if (total > std::uint64_t{w.page_count} * w.usable)  // (so a small file never makes a large allocation)
    return malformed(w.source, fmt::format("a record of {} bytes, more than the file holds", total));
  CUDNNCTL_TRY_ASSIGN(const std::string rec, payload(w, page, at + n1 + n2, total));
  const auto columns = decode_record(rec);
  if (!columns) return malformed(w.source, fmt::format("the record of row {} breaks the record format", rowid));
  return w.row(static_cast<std::int64_t>(rowid), *columns);
}

// The table b-tree below page `n`, depth-first in key order. False when the callback stopped the walk.
Result<bool> walk_page(Walk& w, std::uint32_t n, int depth) {
  if (depth > k_sqlite_depth_max) return malformed(w.source, fmt::format("the b-tree is deeper than {} pages", k_sqlite_depth_max));
  Bytes page;
  CUDNNCTL_TRY(w.load(n, page));
  const std::size_t hdr = n == 1 ? 100 : 0;
  const std::uint8_t type = page[hdr];
  if (type != 0x05 && type != 0x0D) return malformed(w.source, fmt::format("page {} is not a table b-tree page (type {})", n, type));
  const bool leaf = type == 0x0D;
  const std::size_t cells = big_endian_u16(page.data() + hdr + 3), first = hdr + (leaf ? 8 : 12);
  if (first + 2 * cells > w.usable) return malformed(w.source, fmt::format("page {}'s cell pointers run past it", n));
  for (std::size_t i = 0; i < cells; ++i) {
    const std::size_t at = big_endian_u16(page.data() + first + 2 * i);
    if (at < first + 2 * cells || at + (leaf ? 2 : 5) > w.usable) return malformed(w.source, fmt::format("a cell of page {} is outside it", n));
    CUDNNCTL_TRY_ASSIGN(const bool go_on, leaf ? leaf_cell(w, page, at) : walk_page(w, big_endian_u32(page.data() + at), depth + 1));
    if (!go_on) return false;
  }
  if (leaf) return true;
  return walk_page(w, big_endian_u32(page.data() + hdr + 8), depth + 1);
}

} // namespace sqlite_pages
} // namespace

Result<SqliteFile> SqliteFile::from_bytes(std::string_view bytes) {
  using namespace sqlite_pages;
  ReadAt read = [bytes](std::uint64_t offset, std::size_t n, std::uint8_t* out) {
    if (offset > bytes.size() || n > bytes.size() - offset) return false;
    std::memcpy(out, bytes.data() + offset, n);
    return true;
  };
  SqliteFile f(std::move(read), bytes.size(), "(memory)");
  CUDNNCTL_TRY(f.read_header());
  return f;
}

Result<SqliteFile> SqliteFile::open(const std::string& path) {
  using namespace sqlite_pages;
  std::error_code ec;
  const auto st = std::filesystem::symlink_status(path_from_utf8(path), ec);
  if (!ec && std::filesystem::is_symlink(st))
    return fail(ErrorCode::input_invalid, fmt::format("the SQLite database '{}' is a symbolic link, not a regular file", path), "", path);
  CUDNNCTL_TRY(platform::require_regular_file(path, "the SQLite database"));
  CUDNNCTL_TRY_ASSIGN(auto opened, platform::ReadOnlyFile::open(path));
  auto file = std::make_shared<platform::ReadOnlyFile>(std::move(opened));
  if (file->size() > k_sqlite_file_max)
    return fail(ErrorCode::input_invalid, fmt::format("the SQLite database '{}' is larger than the {} bytes read", path, k_sqlite_file_max), "", path);
  ReadAt read = [file](std::uint64_t offset, std::size_t n, std::uint8_t* out) {
    for (std::size_t got = 0; got < n;) {
      const auto r = file->read_at(offset + got, out + got, n - got);
      if (r <= 0) return false;
      got += static_cast<std::size_t>(r);
    }
    return true;
  };
  SqliteFile f(std::move(read), file->size(), path);
  CUDNNCTL_TRY(f.read_header());
  return f;
}

Result<void> SqliteFile::read_header() {
  using namespace sqlite_pages;
  std::uint8_t h[100];
  if (m_size < sizeof h || !m_read(0, sizeof h, h)) return malformed(m_source, "shorter than its 100-byte header");
  if (std::memcmp(h, "SQLite format 3", 16) != 0) return malformed(m_source, "no 'SQLite format 3' header");
  const std::uint32_t raw = big_endian_u16(h + 16), size = raw == 1 ? 65536 : raw;
  if (size < 512 || (size & (size - 1)) != 0) return malformed(m_source, fmt::format("page size {} is not a power of two from 512 to 65536", raw));
  if (h[19] > 2) return malformed(m_source, fmt::format("file format {} is newer than this reader", h[19]));
  if (h[21] != 64 || h[22] != 32 || h[23] != 32) return malformed(m_source, "the payload fractions are not 64/32/32");
  if (size - h[20] < 480) return malformed(m_source, fmt::format("{} reserved bytes leave less than 480 usable in a page", h[20]));
  const std::uint32_t encoding = big_endian_u32(h + 56);
  if (encoding > 1) return malformed(m_source, "the text encoding is UTF-16 (only UTF-8 databases are read)");
  if (m_size < size) return malformed(m_source, "shorter than its first page");
  m_page_size = size;
  m_usable = size - h[20];
  m_page_count = static_cast<std::uint32_t>(std::min<std::uint64_t>(m_size / size, k_sqlite_file_max / 512));
  return {};
}

Result<void> SqliteFile::each_row(std::uint32_t root, const SqliteRowFn& row) const {
  using namespace sqlite_pages;
  Walk w{m_read, m_source, m_page_size, m_usable, m_page_count, row, std::vector<bool>(std::size_t{m_page_count} + 1)};
  CUDNNCTL_TRY(walk_page(w, root, 0));
  return {};
}

Result<std::uint32_t> SqliteFile::table_root(std::string_view name) const {
  using namespace sqlite_pages;
  std::int64_t root = -1;
  // sqlite_schema's columns: type, name, tbl_name, rootpage, sql
  CUDNNCTL_TRY(each_row(1, [&](std::int64_t, const std::vector<SqliteValue>& c) {
    if (c.size() < 4 || c[0].kind != SqliteValue::Kind::text || c[0].bytes != "table" || c[1].kind != SqliteValue::Kind::text ||
        c[1].bytes != name)
      return true;
    root = c[3].kind == SqliteValue::Kind::integer ? c[3].integer : 0;
    return false;
  }));
  if (root == -1) return fail(ErrorCode::input_invalid, fmt::format("the SQLite database '{}' has no table '{}'", m_source, name), "", m_source);
  if (root < 1 || root > m_page_count) return malformed(m_source, fmt::format("table '{}' has its root at page {}, outside the file", name, root));
  return static_cast<std::uint32_t>(root);
}

Result<void> SqliteFile::read_table(std::string_view name, const SqliteRowFn& row) const {
  CUDNNCTL_TRY_ASSIGN(const auto root, table_root(name));
  return each_row(root, row);
}

} // namespace cudnnctl
