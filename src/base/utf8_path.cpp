#include "cudnnctl/base/utf8_path.hpp"

namespace cudnnctl {

std::filesystem::path path_from_utf8(std::string_view utf8) {
  // char8_t text is UTF-8 by definition on every platform and standard library
  return std::filesystem::path(std::u8string_view(reinterpret_cast<const char8_t*>(utf8.data()), utf8.size()));
}

std::string parent_of(const std::string& path) { return utf8_of(path_from_utf8(path).parent_path()); }

std::string utf8_of(const std::filesystem::path& p) {
  const std::u8string u = p.u8string();
  return {reinterpret_cast<const char*>(u.data()), u.size()};
}

std::string native_utf8(const std::filesystem::path& p) {
  std::filesystem::path n = p;
  return utf8_of(n.make_preferred());
}

} // namespace cudnnctl
