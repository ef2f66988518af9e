#include "cudnnctl/archive/entry_name.hpp"

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

namespace {
std::string printable(std::string_view raw) {
  std::string out;
  for (char c : raw) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) out += c;
    else out += fmt::format("\\x{:02X}", u);
  }
  return out;
}
const char* k_hint = "use the original NVIDIA archive (its names are plain ASCII); if the archive was re-packed by a legacy tool, "
                     "give its encoding with --name-encoding (e.g. CP437 or GBK)";
} // namespace

bool looks_like_mojibake(std::string_view s) {
  if (s.find("\xEF\xBF\xBD") != std::string_view::npos) return true;            // U+FFFD
  if (s.find("\xE9\x94\x9F\xE6\x96\xA4\xE6\x8B\xB7") != std::string_view::npos) return true;  // 锟斤拷
  if (s.find("\xE3\x80\x82") != std::string_view::npos) return true;            // 。 (U+3002)
  if (s.find("\xEF\xBC\x8E") != std::string_view::npos) return true;            // ． (U+FF0E)
  return false;
}

Result<std::string> decode_entry_name(std::string_view raw, const std::string& encoding, const std::string& archive) {
  std::string name;
  if (encoding.empty()) {
    for (std::size_t i = 0; i < raw.size();) {
      const auto [cp, len] = decode_utf8(raw.substr(i));
      if (cp == 0xFFFD && !(len == 3 && raw.substr(i, 3) == "\xEF\xBF\xBD"))
        return fail(ErrorCode::archive_encoding,
                    fmt::format("the entry name '{}' in '{}' is not valid UTF-8 (byte {} of the name)", printable(raw), archive, i),
                    k_hint, archive);
      i += len;
    }
    name = std::string(raw);
  } else {
    auto converted = platform::convert_to_utf8(raw, encoding);
    if (!converted) {
      if (converted.error().code == ErrorCode::usage) return Unexpected<Error>(converted.error());
      return fail(ErrorCode::archive_encoding,
                  fmt::format("the entry name '{}' in '{}' is not valid {}: {}", printable(raw), archive, encoding, converted.error().message),
                  k_hint, archive);
    }
    name = std::move(*converted);
  }
  if (looks_like_mojibake(name))
    return fail(ErrorCode::archive_encoding,
                fmt::format("the entry name '{}' in '{}' carries the marks of a wrong character-set conversion (U+FFFD, '锟斤拷' or "
                            "an ideographic full stop where '.' belongs)",
                            name, archive),
                k_hint, archive);
  return name;
}

} // namespace cudnnctl
