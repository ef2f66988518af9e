#pragma once
// SQLite 3 files and rpm header blobs written byte by byte for the readers' tests: the layouts of SQLite's
// "Database File Format" page and of rpm's header, small enough to bend each field a test needs bent.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cudnnctl::testing {

inline void put_be(std::string& s, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i, v >>= 8) s[at + static_cast<std::size_t>(i)] = static_cast<char>(v & 0xff);
}
inline std::string be_bytes(std::uint64_t v, int bytes) {
  std::string s(static_cast<std::size_t>(bytes), '\0');
  put_be(s, 0, v, bytes);
  return s;
}

inline std::string sq_varint(std::uint64_t v) {
  if (v > 0x00ffffffffffffffull) {  // nine bytes: eight of seven bits, the last of eight
    std::string s(9, '\0');
    s[8] = static_cast<char>(v & 0xff);
    v >>= 8;
    for (int i = 7; i >= 0; --i, v >>= 7) s[static_cast<std::size_t>(i)] = static_cast<char>((v & 0x7f) | 0x80);
    return s;
  }
  std::string s(1, static_cast<char>(v & 0x7f));
  for (v >>= 7; v; v >>= 7) s.insert(s.begin(), static_cast<char>((v & 0x7f) | 0x80));
  return s;
}

/// A column for sq_record: serial type and body bytes.
struct SqCol {
  std::uint64_t type;
  std::string body;
};
inline SqCol sq_null() { return {0, ""}; }
inline SqCol sq_int(std::int64_t v) { return {4, be_bytes(static_cast<std::uint64_t>(v), 4)}; }
inline SqCol sq_text(const std::string& s) { return {13 + 2 * s.size(), s}; }
inline SqCol sq_blob(const std::string& s) { return {12 + 2 * s.size(), s}; }

inline std::string sq_record(const std::vector<SqCol>& cols) {
  std::string types, body;
  for (const auto& c : cols) types += sq_varint(c.type), body += c.body;
  std::uint64_t h = types.size() + 1;
  if (sq_varint(h).size() > 1) ++h;  // (the header size counts its own varint; records here stay below 16 KiB of types)
  return sq_varint(h) + types + body;
}

/// A database being written: pages of `page_size` bytes, page 1 first (its 100-byte header added by bytes()).
struct SqDb {
  std::uint32_t page_size = 512;
  std::vector<std::string> pages{std::string()};  // page 1 is filled in last (it names the other roots)

  std::uint32_t add(std::string page) {
    page.resize(page_size, '\0');
    pages.push_back(std::move(page));
    return static_cast<std::uint32_t>(pages.size());
  }
  std::uint32_t usable() const { return page_size; }

  /// A leaf cell (payload size, rowid, local payload, first overflow page), its overflow pages added.
  std::string cell(std::int64_t rowid, const std::string& payload) {
    const std::uint64_t u = usable(), x = u - 35, total = payload.size();
    std::uint64_t local = total;
    if (total > x) {
      const std::uint64_t m = (u - 12) * 32 / 255 - 23, k = m + (total - m) % (u - 4);
      local = k <= x ? k : m;
    }
    std::string c = sq_varint(total) + sq_varint(static_cast<std::uint64_t>(rowid)) + payload.substr(0, local);
    if (local == total) return c;
    c += be_bytes(pages.size() + 1, 4);  // the chain starts at the next page added
    for (std::size_t at = local; at < total; at += u - 4) {
      const bool last = at + (u - 4) >= total;
      add(be_bytes(last ? 0 : pages.size() + 2, 4) + payload.substr(at, u - 4));
    }
    return c;
  }

  /// A b-tree page of `type` (0x0D leaf, 0x05 interior: `right` is its right-most child) holding `cells`.
  std::string page(std::uint8_t type, const std::vector<std::string>& cells, std::uint32_t right = 0, bool first = false) const {
    std::string p(page_size, '\0');
    const std::size_t hdr = first ? 100 : 0, ptrs = hdr + (type == 0x0D ? 8 : 12);
    p[hdr] = static_cast<char>(type);
    put_be(p, hdr + 3, cells.size(), 2);
    if (type != 0x0D) put_be(p, hdr + 8, right, 4);
    std::size_t end = page_size;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      end -= cells[i].size();
      p.replace(end, cells[i].size(), cells[i]);
      put_be(p, ptrs + 2 * i, end, 2);
    }
    put_be(p, hdr + 5, end, 2);
    return p;
  }
  static std::string interior_cell(std::uint32_t child, std::int64_t key) { return be_bytes(child, 4) + sq_varint(static_cast<std::uint64_t>(key)); }

  /// Page 1: the schema (one leaf) naming each table and its root page.
  void schema(const std::vector<std::pair<std::string, std::uint32_t>>& tables) {
    std::vector<std::string> cells;
    std::int64_t id = 1;
    for (const auto& [name, root] : tables)
      cells.push_back(cell(id++, sq_record({sq_text("table"), sq_text(name), sq_text(name), sq_int(root), sq_text("CREATE TABLE x")})));
    pages[0] = page(0x0D, cells, 0, true);
  }

  std::string bytes() const {
    std::string out;
    for (const auto& p : pages) out += p;
    out.replace(0, 16, std::string("SQLite format 3\0", 16));
    put_be(out, 16, page_size == 65536 ? 1 : page_size, 2);
    out[18] = out[19] = 1;
    out[21] = 64, out[22] = 32, out[23] = 32;
    put_be(out, 28, pages.size(), 4);
    put_be(out, 56, 1, 4);  // UTF-8
    return out;
  }
};

/// An rpm header entry for rpm_blob: tag, type, count and the value's bytes.
struct RpmEntry {
  std::uint32_t tag, type, count;
  std::string value;
};
inline RpmEntry rpm_string(std::uint32_t tag, const std::string& s) { return {tag, 6, 1, s + '\0'}; }
inline RpmEntry rpm_strings(std::uint32_t tag, const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + '\0';
  return {tag, 8, static_cast<std::uint32_t>(v.size()), s};
}
inline RpmEntry rpm_int32s(std::uint32_t tag, const std::vector<std::uint32_t>& v) {
  std::string s;
  for (auto x : v) s += be_bytes(x, 4);
  return {tag, 4, static_cast<std::uint32_t>(v.size()), s};
}

/// A header blob as rpmdb.sqlite stores it: il, dl, the index, the data (values laid end to end).
inline std::string rpm_blob(const std::vector<RpmEntry>& entries) {
  std::string index, data;
  for (const auto& e : entries) {
    while (e.type == 4 && data.size() % 4) data += '\0';
    index += be_bytes(e.tag, 4) + be_bytes(e.type, 4) + be_bytes(data.size(), 4) + be_bytes(e.count, 4);
    data += e.value;
  }
  return be_bytes(entries.size(), 4) + be_bytes(data.size(), 4) + index + data;
}

/// The header of a package with its files split into DIRNAMES, BASENAMES and DIRINDEXES.
inline std::string rpm_package_blob(const std::string& name, const std::string& version, const std::string& release,
                                    const std::vector<std::string>& dirs, const std::vector<std::string>& bases,
                                    const std::vector<std::uint32_t>& index) {
  return rpm_blob({rpm_string(1000, name), rpm_string(1001, version), rpm_string(1002, release), rpm_int32s(1116, index),
                   rpm_strings(1117, bases), rpm_strings(1118, dirs)});
}

} // namespace cudnnctl::testing
