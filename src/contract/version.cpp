#include "cudnnctl/contract/version.hpp"

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

std::string Version::to_string() const {
  std::string out;
  for (int i = 0; i < count; ++i) out += (i ? "." : "") + std::to_string(parts[static_cast<std::size_t>(i)]);
  return out;
}

std::string Version::release_label() const {
  Version v = *this;
  v.count = count < 3 ? count : 3;
  return v.to_string();
}

Result<Version> parse_version(std::string_view text) {
  const auto pieces = split(text, '.');
  if (text.empty() || pieces.size() > 4)
    return fail(ErrorCode::name_bad_version, fmt::format("'{}' is not a cuDNN version (expected A.B.C.D, e.g. 9.1.0.70)", text));
  Version v;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const bool build = i == 3;
    const auto n = parse_decimal(pieces[i], build ? 9 : 2);
    if (!n) {
      const char* what[] = {"major", "minor", "patch", "build"};
      return fail(ErrorCode::name_bad_version,
                  fmt::format("version '{}' has an invalid {} number '{}' ({})", text, what[i], pieces[i],
                              build ? "expected 1-9 digits without a leading zero"
                                    : "expected 0-99 without a leading zero"));
    }
    v.parts[i] = *n;
  }
  v.count = static_cast<int>(pieces.size());
  if (v.major() == 0)
    return fail(ErrorCode::name_bad_version, fmt::format("version '{}' has major version 0; cuDNN majors start at 1", text));
  return v;
}

std::optional<std::uint32_t> cudnn_version_macro(const Version& v) {
  if (v.count < 3) return std::nullopt;
  const std::uint32_t scale = v.major() >= 9 ? 10000 : 1000;
  return v.major() * scale + v.minor() * 100 + v.patch();
}

} // namespace cudnnctl
