#pragma once
// Member names: decoded to UTF-8 (whatever the zip's language-encoding flag says), checked for the
// mojibake that legacy re-packing tools leave behind.
#include <string>
#include <string_view>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// Decodes a raw member name. `encoding` empty: the bytes must be valid UTF-8. Otherwise the bytes are
/// converted from that encoding (CP437, GBK, ...). Errors name the entry and suggest NVIDIA's archive.
Result<std::string> decode_entry_name(std::string_view raw, const std::string& encoding, const std::string& archive);

/// True for names carrying the marks of a wrong decode: U+FFFD, "锟斤拷", or an ideographic full stop
/// standing where a '.' belongs ("cudnn。h").
bool looks_like_mojibake(std::string_view utf8);

} // namespace cudnnctl
