#pragma once
// Small string helpers that know nothing about cuDNN.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnnctl {

/// Splits on every occurrence of `sep` (empty pieces kept).
std::vector<std::string_view> split(std::string_view s, char sep);
bool is_ascii_digit(char c);
bool all_digits(std::string_view s);
/// Parses a decimal number of at most `max_digits` digits with no sign and no leading zero
/// (a lone "0" is fine). nullopt otherwise.
std::optional<std::uint32_t> parse_decimal(std::string_view s, std::size_t max_digits = 9);
/// Parses decimal digits (leading zeros allowed) that fit an unsigned 32-bit number; nullopt for anything
/// else (empty, a sign, a non-digit, too large). Never throws: for numbers taken from names and files.
std::optional<std::uint32_t> parse_uint(std::string_view s);
/// parse_uint, or `fallback` when the text is not such a number.
std::uint32_t parse_uint_or(std::string_view s, std::uint32_t fallback);
std::string to_lower_ascii(std::string_view s);
bool iequals_ascii(std::string_view a, std::string_view b);
/// The last path component, splitting on both '/' and '\\'.
std::string_view base_name(std::string_view path);
/// `path` with every '/' turned into '\\': how Windows writes a path shown to its users.
std::string with_backslashes(std::string path);
/// Decodes the first UTF-8 code point of `s`; returns {code point, length} or {0xFFFD, 1} when invalid.
std::pair<char32_t, std::size_t> decode_utf8(std::string_view s);
/// UTF-16LE bytes (a BOM, when present, is dropped) -> UTF-8; unpaired surrogates become U+FFFD.
std::string utf16le_to_utf8(std::string_view bytes);
/// Appends the UTF-8 encoding of one code point.
void append_utf8(std::string& out, char32_t cp);

/// Text that is safe to show on a terminal: control characters other than newline and tab (C0, DEL, and
/// C1 U+0080-U+009F, which include ESC and CSI) and bytes that are not valid UTF-8 become "\xNN", one per
/// byte; valid UTF-8 text is kept as it is.
std::string terminal_safe(std::string_view s);
/// Length of the longest tail of `s` that is the start of a UTF-8 sequence not yet complete (0-3).
std::size_t incomplete_utf8_tail(std::string_view s);

/// "U+2010"
std::string code_point_label(char32_t cp);
/// Lower-case hex of bytes.
std::string to_hex(const unsigned char* data, std::size_t n);
/// True for exactly 64 hex digits (either case).
bool is_sha256_hex(std::string_view s);
/// Compares dotted numeric versions ("12.4" < "12.10"); missing or non-numeric parts count as 0.
int compare_dotted(std::string_view a, std::string_view b);
/// "669629858 bytes (638.61 MiB)"
std::string human_size(std::uint64_t bytes);

/// Text for HTML element content and attribute values (either quote): & < > " ' escaped.
std::string html_escape(std::string_view s);

/// Dotted decimal versions compared by number, a missing part read as 0: "9.8" == "9.8.0" < "9.10" <
/// "9.10.2.21". Reading stops at the first part that is not a number (a suffix, an overflow): -1, 0 or 1.
int compare_versions(std::string_view a, std::string_view b);

} // namespace cudnnctl
