// An rpm header blob read as untrusted bytes (rpm_header.hpp): the index of (tag, type, offset, count) entries
// and the values they point at in the data area.
#include "cudnnctl/owner/rpm_header.hpp"

#include <cstring>
#include <iterator>

#include "cudnnctl/base/byte_order.hpp"
#include "cudnnctl/owner/owner_records.hpp"

namespace cudnnctl {
namespace {
namespace rpm_blob {  // (a named namespace: the owner module is built as one unity file)

constexpr unsigned char k_magic[8] = {0x8e, 0xad, 0xe8, 0x01, 0, 0, 0, 0};
constexpr std::uint32_t k_type_int32 = 4, k_type_string = 6, k_type_string_array = 8, k_type_i18nstring = 9;
constexpr std::uint32_t k_tag_name = 1000, k_tag_version = 1001, k_tag_release = 1002, k_tag_oldfilenames = 1027,
                        k_tag_dirindexes = 1116, k_tag_basenames = 1117, k_tag_dirnames = 1118;
constexpr std::uint32_t k_tags[] = {k_tag_name, k_tag_version, k_tag_release, k_tag_oldfilenames, k_tag_dirindexes, k_tag_basenames, k_tag_dirnames};
constexpr std::size_t k_tag_count = std::size(k_tags);
// All the paths of one header together (their directories are shared, so they may spell more than dl bytes).
constexpr std::uint64_t k_paths_bytes_max = 64ull << 20;

struct Entry {
  bool present = false;
  std::uint32_t type = 0, offset = 0, count = 0;
};

struct Header {
  std::string_view data;
  Entry entries[k_tag_count];

  const Entry& operator[](std::uint32_t tag) const {
    for (std::size_t i = 0; i < k_tag_count; ++i)
      if (k_tags[i] == tag) return entries[i];
    return entries[0];  // (every caller names one of k_tags)
  }
};

// The index and data of a blob; nullopt when il or dl is out of bounds or the blob is shorter than they say.
std::optional<Header> split(std::string_view blob) {
  if (blob.size() >= 8 && std::memcmp(blob.data(), k_magic, 8) == 0) blob.remove_prefix(8);
  if (blob.size() < 8) return std::nullopt;
  const std::uint32_t il = big_endian_u32(blob.data()), dl = big_endian_u32(blob.data() + 4);
  if (il < 1 || il > k_rpm_header_entries_max || dl > k_rpm_header_data_max) return std::nullopt;
  const std::uint64_t index_end = 8 + 16ull * il;
  if (blob.size() < index_end + dl) return std::nullopt;
  Header h;
  h.data = blob.substr(index_end, dl);
  for (std::uint32_t i = 0; i < il; ++i) {
    const char* e = blob.data() + 8 + 16ull * i;
    const std::uint32_t tag = big_endian_u32(e);
    for (std::size_t t = 0; t < k_tag_count; ++t)
      if (k_tags[t] == tag && !h.entries[t].present) h.entries[t] = {true, big_endian_u32(e + 4), big_endian_u32(e + 8), big_endian_u32(e + 12)};
  }
  return h;
}

// The strings of a STRING, STRING_ARRAY or I18NSTRING entry (STRING: one); nullopt when one is not NUL-terminated
// inside the data or the count cannot fit.
std::optional<std::vector<std::string_view>> strings(const Header& h, std::uint32_t tag) {
  const Entry& e = h[tag];
  if (!e.present) return std::vector<std::string_view>{};
  if (e.type != k_type_string && e.type != k_type_string_array && e.type != k_type_i18nstring) return std::nullopt;
  const std::uint32_t count = e.type == k_type_string ? 1 : e.count;
  if (count == 0 || count > k_rpm_header_strings_max || e.offset >= h.data.size() || count > h.data.size() - e.offset) return std::nullopt;
  std::vector<std::string_view> out;
  out.reserve(count);
  std::size_t at = e.offset;
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto nul = h.data.find('\0', at);
    if (nul == std::string_view::npos) return std::nullopt;
    out.push_back(h.data.substr(at, nul - at));
    at = nul + 1;
  }
  return out;
}

// The values of an INT32 entry; nullopt when they do not fit inside the data.
std::optional<std::vector<std::uint32_t>> int32s(const Header& h, std::uint32_t tag) {
  const Entry& e = h[tag];
  if (!e.present) return std::vector<std::uint32_t>{};
  if (e.type != k_type_int32 || e.offset > h.data.size() || e.count > (h.data.size() - e.offset) / 4) return std::nullopt;
  std::vector<std::uint32_t> out(e.count);
  for (std::uint32_t i = 0; i < e.count; ++i) out[i] = big_endian_u32(h.data.data() + e.offset + 4ull * i);
  return out;
}

// The first string of a NAME, VERSION or RELEASE entry when it is a plain token.
std::optional<std::string> token(const Header& h, std::uint32_t tag) {
  const auto s = strings(h, tag);
  if (!s || s->empty() || !plain_token(s->front())) return std::nullopt;
  return std::string(s->front());
}

// The package's files: DIRNAMES[DIRINDEXES[i]] + BASENAMES[i], or OLDFILENAMES; plain absolute paths only.
std::optional<std::vector<std::string>> files(const Header& h) {
  const auto bases = strings(h, k_tag_basenames), dirs = strings(h, k_tag_dirnames), old = strings(h, k_tag_oldfilenames);
  const auto index = int32s(h, k_tag_dirindexes);
  if (!bases || !dirs || !index || !old) return std::nullopt;
  if (bases->size() != index->size()) return std::nullopt;
  std::vector<std::string> out;
  std::uint64_t bytes = 0;
  const auto keep = [&](std::string path) {
    bytes += path.size();
    if (plain_absolute_path(path)) out.push_back(std::move(path));
    return bytes <= k_paths_bytes_max;
  };
  for (std::size_t i = 0; i < bases->size(); ++i) {
    if ((*index)[i] >= dirs->size()) return std::nullopt;
    const std::string_view dir = (*dirs)[(*index)[i]];
    if (dir.size() + (*bases)[i].size() > 4096) continue;  // plain_absolute_path refuses it anyway
    if (!keep(std::string(dir) + std::string((*bases)[i]))) return std::nullopt;
  }
  if (bases->empty())
    for (const auto& p : *old)
      if (!keep(std::string(p))) return std::nullopt;
  return out;
}

} // namespace rpm_blob
} // namespace

std::optional<RpmPackage> parse_rpm_header(std::string_view blob) {
  using namespace rpm_blob;
  const auto h = split(blob);
  if (!h) return std::nullopt;
  const auto name = token(*h, k_tag_name), version = token(*h, k_tag_version), release = token(*h, k_tag_release);
  if (!name || !version || !release) return std::nullopt;
  auto paths = files(*h);
  if (!paths) return std::nullopt;
  RpmPackage p{*name, *version + "-" + *release, std::move(*paths)};
  if (!plain_token(p.version)) return std::nullopt;
  return p;
}

} // namespace cudnnctl
