// libFuzzer target for the package managers' record parsers (src/owner/owner_records.cpp): dpkg's status and
// lists, Debian's nvidia-cudnn filelist, pacman's desc and files, pip's RECORD, conda-meta JSON, dist-info folder
// names and NVIDIA's Windows installer paths. The first byte picks the parser, the rest is the record. Besides
// "no crash, no UB", it checks what the parsers promise: every name and version they return is a plain token
// (never printed otherwise), and every path of a path list is absolute, without a "." or ".." component or a trailing '/'.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cudnnctl/owner/owner_records.hpp"

namespace {

void must(bool ok) {
  if (!ok) std::abort();
}

void absolute_paths(const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    must(!p.empty() && p.front() == '/' && (p.size() == 1 || p.back() != '/'));
    must(p.find("/./") == std::string::npos && p.find("/../") == std::string::npos && !p.ends_with("/.") && !p.ends_with("/.."));
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  using namespace cudnnctl;
  switch (data[0] % 8) {
    case 0:
      for (const auto& p : parse_dpkg_status(text)) must(plain_token(p.name) && plain_token(p.version));
      break;
    case 1:
      absolute_paths(parse_path_list(text));
      break;
    case 2:
      if (const auto d = parse_pacman_desc(text)) must(plain_token(d->name) && plain_token(d->version));
      break;
    case 3:
      absolute_paths(parse_pacman_files(text));
      break;
    case 4:
      for (const auto& p : parse_record_paths(text)) must(!p.empty());
      break;
    case 5:
      if (const auto c = parse_conda_record(text)) must(plain_token(c->name) && plain_token(c->version));
      break;
    case 6:
      if (const auto n = parse_dist_info_name(text)) must(!n->first.empty() && !n->second.empty());
      break;
    default:
      if (const auto place = windows_installer_place(text)) must(!place->release.empty() && text.find(place->root) == 0);
      break;
  }
  return 0;
}
