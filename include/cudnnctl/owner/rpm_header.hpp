#pragma once
// One rpm package header as rpm's database stores it (the `blob` of rpmdb.sqlite's Packages table), read as
// untrusted bytes: no I/O here. The blob is the header without its 8-byte magic (il, the index's entry count,
// and dl, the data's length, big-endian), then il 16-byte entries (tag, type, offset, count), then dl bytes of
// data; a blob that starts with the magic (8e ad e8 01 00 00 00 00, as in a .rpm file) is read too.
// Bounded: il at most k_rpm_header_entries_max, dl at most k_rpm_header_data_max, the blob at least as long as
// both say, each entry's values inside the data, each string NUL-terminated inside it, counts checked against
// the bytes they need, an entry's strings at most k_rpm_header_strings_max, the paths at most 64 MiB in all
// (their folders are shared, so they may spell more than dl bytes). A header that breaks the format gives nothing; a path that is not a plain absolute path
// (a control byte, a "." or ".." component) is left out, a name or version that is not a plain_token drops
// the header.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

inline constexpr std::uint32_t k_rpm_header_entries_max = 0xffff;    // rpm's own HEADER_TAGS_MAX
inline constexpr std::uint32_t k_rpm_header_data_max = 32u << 20;    // rpm allows 256 MB; real headers are KBs to MBs
inline constexpr std::uint32_t k_rpm_header_strings_max = 1u << 20;  // one entry's strings (a package's files: at most ~10^5)

struct RpmPackage {
  std::string name;     // NAME (1000): "libcudnn9-cuda-13"
  std::string version;  // VERSION (1001) "-" RELEASE (1002): "9.19.0.56-1", as `rpm -q` prints them
  std::vector<std::string> files;  // DIRNAMES (1118)[DIRINDEXES (1116)[i]] + BASENAMES (1117)[i]; else OLDFILENAMES (1027)
};

/// The package a header names, with its files; nullopt when the header breaks the format or has no plain name,
/// version and release.
std::optional<RpmPackage> parse_rpm_header(std::string_view blob);

} // namespace cudnnctl
